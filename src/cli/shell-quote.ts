export { shellCommand, shellQuote } from "../util/shell-quote.ts";
