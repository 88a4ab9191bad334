import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  classifyFailureText,
  classifyStructured,
  exitWithoutResult,
  isContextOverflow,
  type StructuredFailure,
} from "./classify-failure.ts";
import type { FailureReason } from "./failure-reason.ts";

const retriable = (type: FailureReason["type"], message: string, retryAfterMs?: number): FailureReason =>
  retryAfterMs === undefined
    ? { type, retriable: true, message }
    : { type, retriable: true, message, retryAfterMs };
const permanent = (message: string): FailureReason => ({ type: "api-error", retriable: false, message });

interface Row {
  readonly name: string;
  readonly text: string;
  readonly session?: boolean;
  readonly expected: FailureReason;
}

/** One row per rule of reference 1.15, and one per ordering subtlety. */
const rows: readonly Row[] = [
  // Reference examples.
  {
    name: "reference: 500 overloaded is a retriable server error",
    text: "API Error: 500 Internal Server Error (overloaded_error)",
    expected: retriable(
      "api-error",
      "API server error: API Error: 500 Internal Server Error (overloaded_error)",
    ),
  },
  {
    name: "reference: idle timeout is a retriable timeout, and 180000ms is not a hint",
    text: "Idle timeout: no events received for 180000ms",
    expected: retriable("timeout", "Idle timeout: no events received for 180000ms"),
  },
  {
    name: "reference: rate-limit words beat quota, with the Retry-After hint",
    text: "429 rate_limit_error: quota exceeded, retry after 60s",
    expected: retriable(
      "rate-limit",
      "API rate limit: 429 rate_limit_error: quota exceeded, retry after 60s",
      60_000,
    ),
  },
  {
    name: "reference: a usage-limit error name is permanent",
    text: "GoUsageLimitError: monthly usage limit reached",
    expected: permanent("API billing/usage error: GoUsageLimitError: monthly usage limit reached"),
  },
  {
    name: "reference: credit balance too low is permanent",
    text: "Your credit balance is too low to access the Anthropic API.",
    expected: permanent(
      "API billing/usage error: Your credit balance is too low to access the Anthropic API.",
    ),
  },
  {
    name: "reference: ECONNRESET is a retriable transport error",
    text: "read ECONNRESET",
    expected: retriable("api-error", "API transport error: read ECONNRESET"),
  },
  {
    name: "reference: unknown text with a session is retriable",
    text: "something odd happened",
    expected: retriable("api-error", "API error in result: something odd happened"),
  },
  {
    name: "reference: unknown text without a session is a permanent local error",
    text: "spawn claude ENOENT",
    session: false,
    expected: permanent("Local setup/process error (no session established): spawn claude ENOENT"),
  },
  // Rule 1: each rate-limit spelling.
  {
    name: "rule 1: 'rate limit'",
    text: "Rate limit reached",
    expected: retriable("rate-limit", "API rate limit: Rate limit reached"),
  },
  {
    name: "rule 1: 'rate-limit'",
    text: "rate-limit hit",
    expected: retriable("rate-limit", "API rate limit: rate-limit hit"),
  },
  // Rule 2: each billing word.
  {
    name: "rule 2: billing",
    text: "billing hard limit",
    expected: permanent("API billing/usage error: billing hard limit"),
  },
  {
    name: "rule 2: insufficient",
    text: "insufficient_quota",
    expected: permanent("API billing/usage error: insufficient_quota"),
  },
  {
    name: "rule 2: a 429 with a quota and no rate-limit words is permanent",
    text: "429 You exceeded your current quota",
    expected: permanent("API billing/usage error: 429 You exceeded your current quota"),
  },
  {
    name: "rule 2: available balance",
    text: "no available balance",
    expected: permanent("API billing/usage error: no available balance"),
  },
  {
    name: "rule 2: out of budget",
    text: "Key is out of budget",
    expected: permanent("API billing/usage error: Key is out of budget"),
  },
  {
    name: "rule 2: 'usagelimit'",
    text: "UsageLimitExceeded",
    expected: permanent("API billing/usage error: UsageLimitExceeded"),
  },
  {
    name: "rule 2: billing wins over a timeout word, and permanent verdicts carry no hint",
    text: "billing timeout, retry after 5s",
    expected: permanent("API billing/usage error: billing timeout, retry after 5s"),
  },
  // Rule 4 before the status codes.
  {
    name: "rule 4: 'after 400 seconds' is a timeout, not a 400",
    text: "Request timed out after 400 seconds",
    expected: retriable("timeout", "Request timed out after 400 seconds"),
  },
  {
    name: "rule 4: a timeout beats a 401 in the same text",
    text: "timeout while refreshing token (401)",
    expected: retriable("timeout", "timeout while refreshing token (401)"),
  },
  // Rule 5: auth.
  {
    name: "rule 5: 401",
    text: "HTTP 401 from provider",
    expected: permanent("API auth error: HTTP 401 from provider"),
  },
  { name: "rule 5: 403", text: "status 403", expected: permanent("API auth error: status 403") },
  {
    name: "rule 5: authentication",
    text: "authentication_error: invalid x-api-key",
    expected: permanent("API auth error: authentication_error: invalid x-api-key"),
  },
  { name: "rule 5: forbidden", text: "Forbidden", expected: permanent("API auth error: Forbidden") },
  {
    name: "rule 5: api key",
    text: "Missing API key",
    expected: permanent("API auth error: Missing API key"),
  },
  {
    name: "rule 5: oauth",
    text: "OAuth token revoked",
    expected: permanent("API auth error: OAuth token revoked"),
  },
  // Rule 6: invalid request.
  {
    name: "rule 6: 400",
    text: "400 Bad Request",
    expected: permanent("API invalid request: 400 Bad Request"),
  },
  {
    name: "rule 6: prompt is too long",
    text: "prompt is too long: 210000 tokens > 200000 maximum",
    expected: permanent("API invalid request: prompt is too long: 210000 tokens > 200000 maximum"),
  },
  {
    name: "rule 6: ValidationException",
    text: "ValidationException: bad field",
    expected: permanent("API invalid request: ValidationException: bad field"),
  },
  {
    name: "rule 6: 'Validation error:'",
    text: "Validation error: This model doesn't support tool use",
    expected: permanent("API invalid request: Validation error: This model doesn't support tool use"),
  },
  {
    name: "rule 6: invalid_request_error",
    text: "invalid_request_error",
    expected: permanent("API invalid request: invalid_request_error"),
  },
  // Rule 7: bare 429.
  {
    name: "rule 7: a bare 429 is a rate limit, hint attached",
    text: "429 Too Many Requests; try again in 2 minutes",
    expected: retriable(
      "rate-limit",
      "API rate limit: 429 Too Many Requests; try again in 2 minutes",
      120_000,
    ),
  },
  // Rule 8: transport, also without a session.
  {
    name: "rule 8: fetch failed",
    text: "TypeError: fetch failed",
    expected: retriable("api-error", "API transport error: TypeError: fetch failed"),
  },
  {
    name: "rule 8: transport stays retriable without a session",
    text: "getaddrinfo ENOTFOUND api.anthropic.com",
    session: false,
    expected: retriable("api-error", "API transport error: getaddrinfo ENOTFOUND api.anthropic.com"),
  },
  {
    name: "rule 8: stream terminated",
    text: "stream was terminated early",
    expected: retriable("api-error", "API transport error: stream was terminated early"),
  },
  {
    name: "rule 8: socket hang up",
    text: "socket hang up",
    expected: retriable("api-error", "API transport error: socket hang up"),
  },
  // Rule 9: server errors, also without a session.
  {
    name: "rule 9: 502",
    text: "502 Bad Gateway",
    expected: retriable("api-error", "API server error: 502 Bad Gateway"),
  },
  { name: "rule 9: 529", text: "Error 529", expected: retriable("api-error", "API server error: Error 529") },
  {
    name: "rule 9: overloaded stays retriable without a session",
    text: "Overloaded",
    session: false,
    expected: retriable("api-error", "API server error: Overloaded"),
  },
  {
    name: "rule 9: service unavailable",
    text: "Service Unavailable",
    expected: retriable("api-error", "API server error: Service Unavailable"),
  },
  // Status codes only as words of their own.
  {
    name: "a duration 1500ms never matches 500",
    text: "step took 1500ms then stopped",
    expected: retriable("api-error", "API error in result: step took 1500ms then stopped"),
  },
  {
    name: "'500 ms' is a duration, not a 500",
    text: "slept 500 ms",
    expected: retriable("api-error", "API error in result: slept 500 ms"),
  },
  {
    name: "'1,400 tokens' is not a 400",
    text: "used 1,400 tokens",
    expected: retriable("api-error", "API error in result: used 1,400 tokens"),
  },
  {
    name: "a hint rides on the fallback verdict too",
    text: "weird failure, retry-after: 7",
    expected: retriable("api-error", "API error in result: weird failure, retry-after: 7", 7000),
  },
  {
    name: "a hint over one hour is ignored",
    text: "503, retry after 2 hours",
    expected: retriable("api-error", "API server error: 503, retry after 2 hours"),
  },
  {
    name: "empty text reads as an unknown error",
    text: "  ",
    expected: retriable("api-error", "API error in result: Unknown error"),
  },
];

describe("classifyFailureText", () => {
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(classifyFailureText(row.text, row.session ?? true), row.expected);
    });
  }
});

describe("classifyFailureText: Bedrock (rule 3)", () => {
  const bedrock: ReadonlyArray<readonly [string, string]> = [
    [
      "AccessDenied: User arn:aws:iam::1:user/x is not authorized to perform: sts:AssumeRole",
      "role cannot be assumed",
    ],
    ["AccessDeniedException: You don't have access to the model", "may not invoke this model"],
    [
      "UnrecognizedClientException: The security token included in the request is invalid.",
      "credentials are invalid",
    ],
    ["InvalidSignatureException: Signature expired; x-stainless-timeout: 600", "request signing failed"],
    [
      "ExpiredTokenException: The security token included in the request is expired",
      "session credentials expired",
    ],
    ["The SSO session associated with this profile has expired or is otherwise invalid", "SSO session"],
    [
      "CredentialsProviderError: Could not load credentials from any providers",
      "no AWS credentials were found",
    ],
    ["Invocation with on-demand throughput isn't supported.", "needs an inference profile"],
    ["ResourceNotFoundException: Could not resolve the foundation model", "not served in this region"],
  ];
  for (const [text, remedy] of bedrock) {
    it(`permanent with remedy: ${text.slice(0, 40)}`, () => {
      const result = classifyFailureText(text, true);
      assert.equal(result.type, "api-error");
      assert.equal(result.retriable, false);
      assert.ok(result.message.startsWith(`Bedrock auth/access error: ${text} — `), result.message);
      assert.ok(result.message.includes(remedy), result.message);
    });
  }

  it("a signature dump containing 'timeout' is still the Bedrock verdict, not a timeout", () => {
    assert.equal(
      classifyFailureText("SignatureDoesNotMatch\nx-stainless-timeout:600", true).retriable,
      false,
    );
  });
});

describe("classifyStructured", () => {
  const cases: ReadonlyArray<readonly [string, StructuredFailure, boolean, FailureReason]> = [
    [
      "status 429 is a rate limit",
      { status: 429, message: "Too Many Requests" },
      true,
      retriable("rate-limit", "API rate limit: 429: Too Many Requests"),
    ],
    [
      "status 429 with a quota type is permanent billing",
      { status: 429, errorType: "insufficient_quota", message: "You exceeded your current quota" },
      true,
      permanent("API billing/usage error: 429 insufficient_quota: You exceeded your current quota"),
    ],
    [
      "a header Retry-After beats the text hint",
      { status: 429, errorType: "rate_limit_error", message: "retry after 60s", retryAfterMs: 5000 },
      true,
      retriable("rate-limit", "API rate limit: 429 rate_limit_error: retry after 60s", 5000),
    ],
    [
      "status 529 is a retriable server error",
      { status: 529, errorType: "overloaded_error", message: "Overloaded" },
      true,
      retriable("api-error", "API server error: 529 overloaded_error: Overloaded"),
    ],
    [
      "status 503 stays retriable without a session",
      { status: 503, message: "upstream connect error" },
      false,
      retriable("api-error", "API server error: 503: upstream connect error"),
    ],
    [
      "status 401 is permanent even when the text says timeout",
      { status: 401, message: "token refresh timed out" },
      true,
      permanent("API auth error: 401: token refresh timed out"),
    ],
    [
      "status 403 with permission_error",
      { status: 403, errorType: "permission_error", message: "not allowed" },
      true,
      permanent("API auth error: 403 permission_error: not allowed"),
    ],
    [
      "status 400 is permanent",
      { status: 400, errorType: "invalid_request_error", message: "prompt is too long: 250000 tokens" },
      true,
      permanent("API invalid request: 400 invalid_request_error: prompt is too long: 250000 tokens"),
    ],
    [
      "status 408 is a timeout",
      { status: 408, message: "Request Timeout" },
      true,
      retriable("timeout", "408: Request Timeout"),
    ],
    [
      "the status is not repeated when the message has it",
      { status: 500, message: "500 Internal Server Error" },
      true,
      retriable("api-error", "API server error: 500 Internal Server Error"),
    ],
    [
      "no status: the error type joins the text rules",
      { errorType: "authentication_error", message: "bad key" },
      true,
      permanent("API auth error: authentication_error: bad key"),
    ],
    [
      "no status, unknown type: the fallback honours the session",
      { errorType: "weird_error", message: "boom" },
      false,
      permanent("Local setup/process error (no session established): weird_error: boom"),
    ],
    [
      "404 falls back to the text rules",
      { status: 404, message: "model not found" },
      true,
      retriable("api-error", "API error in result: 404: model not found"),
    ],
  ];
  for (const [name, input, session, expected] of cases) {
    it(name, () => {
      assert.deepEqual(classifyStructured(input, session), expected);
    });
  }

  it("a 403 naming an AWS error gets the Bedrock remedy", () => {
    const result = classifyStructured({ status: 403, message: "AccessDeniedException: no access" }, true);
    assert.equal(result.retriable, false);
    assert.ok(
      result.message.startsWith("Bedrock auth/access error: 403: AccessDeniedException: no access — "),
    );
  });
});

describe("isContextOverflow", () => {
  it("recognizes overflow texts and types", () => {
    assert.equal(isContextOverflow("prompt is too long: 210000 tokens > 200000 maximum"), true);
    assert.equal(
      isContextOverflow({ status: 400, errorType: "context_length_exceeded", message: "too big" }),
      true,
    );
    assert.equal(isContextOverflow("This model's maximum context length is 128000 tokens"), true);
  });
  it("does not mistake other errors for an overflow", () => {
    assert.equal(isContextOverflow("400 Bad Request"), false);
    assert.equal(isContextOverflow({ status: 429, message: "rate limited" }), false);
  });
});

describe("exitWithoutResult", () => {
  it("is retriable when a session was established", () => {
    assert.deepEqual(
      exitWithoutResult(1, true),
      retriable("api-error", "Codon process exited without a result message (exit code 1)"),
    );
  });
  it("is permanent before a session was established", () => {
    assert.deepEqual(
      exitWithoutResult(127, false),
      permanent("Codon process exited before establishing a session (exit code 127)"),
    );
  });
  it("names the signal when there is no exit code", () => {
    assert.equal(
      exitWithoutResult(null, true, "SIGKILL").message,
      "Codon process exited without a result message (signal SIGKILL)",
    );
    assert.equal(
      exitWithoutResult(null, true).message,
      "Codon process exited without a result message (no exit code)",
    );
  });
});
