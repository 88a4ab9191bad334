/**
 * Amazon Bedrock failures that only the operator can fix (reference 1.15, rule 3). They surface as AWS
 * error names without an HTTP status, so without these patterns they would be retried in vain.
 */
const BEDROCK_RULES: ReadonlyArray<{ readonly test: (lower: string) => boolean; readonly remedy: string }> = [
  {
    test: (l) => l.includes("sts:assumerole") && (l.includes("accessdenied") || l.includes("not authorized")),
    remedy:
      "the role cannot be assumed: check the profile's role_arn, the role's trust policy, and any external id or MFA it requires.",
  },
  {
    test: (l) => l.includes("accessdeniedexception"),
    remedy:
      "these credentials may not invoke this model here: allow bedrock:InvokeModel* for the inference profile and its foundation models (IAM and SCPs), and for a first Anthropic use submit the use-case form once in the Bedrock console.",
  },
  {
    test: (l) =>
      l.includes("unrecognizedclientexception") ||
      l.includes("security token included in the request is invalid"),
    remedy:
      "the credentials are invalid: check AWS_BEARER_TOKEN_BEDROCK, or AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY; short-term Bedrock API keys expire, so prefer a long-term key.",
  },
  {
    test: (l) =>
      l.includes("invalidsignatureexception") ||
      l.includes("signaturedoesnotmatch") ||
      l.includes("signature we calculated does not match"),
    remedy:
      "request signing failed: the secret key does not belong to the access key, or the system clock is far off.",
  },
  {
    test: (l) => l.includes("expiredtokenexception"),
    remedy: "the session credentials expired: run `aws sso login --profile <profile>` or refresh them.",
  },
  {
    test: (l) =>
      l.includes("sso session") &&
      (l.includes("not found") || l.includes("invalid") || l.includes("expired")),
    remedy: "the SSO session of this profile is missing or expired: run `aws sso login --profile <profile>`.",
  },
  {
    test: (l) =>
      l.includes("could not load credentials") ||
      l.includes("unable to locate credentials") ||
      l.includes("provider is not configured: amazon-bedrock"),
    remedy:
      "no AWS credentials were found: set AWS_BEARER_TOKEN_BEDROCK, or AWS_PROFILE after `aws sso login`, or AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY, and AWS_REGION.",
  },
  {
    test: (l) => /on-demand throughput isn.t supported/.test(l),
    remedy:
      "this model needs an inference profile: prefix the model id with your region group ('us.', 'eu.', 'jp.', 'au.', 'us-gov.') or use a 'global.' profile.",
  },
  {
    test: (l) =>
      l.includes("resourcenotfoundexception") || l.includes("the provided model identifier is invalid"),
    remedy:
      "the model is not served in this region: set AWS_REGION to one that serves it, or use a 'global.' profile.",
  },
];

/** What to check for a Bedrock auth or access failure, or undefined when the text names none. */
export function bedrockRemedy(lowerText: string): string | undefined {
  return BEDROCK_RULES.find((rule) => rule.test(lowerText))?.remedy;
}
