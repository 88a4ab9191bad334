// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences is the point.
const ANSI = /\u001b\[[0-9;]*m/g;

/** Columns a string occupies on screen: ANSI colour codes take none. */
export function visibleLength(text: string): number {
  return [...text.replace(ANSI, "")].length;
}

/** Pads with spaces to `width` visible columns. */
export function padVisible(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - visibleLength(text)));
}

/**
 * Word-wraps plain text to `width` columns; explicit newlines are kept. A word longer than the width
 * is cut, so no line ever exceeds it.
 */
export function wrapText(text: string, width: number): string[] {
  const limit = Math.max(1, width);
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/ +/)) {
      for (const piece of chunk(word, limit)) {
        if (line === "") line = piece;
        else if (line.length + 1 + piece.length <= limit) line += ` ${piece}`;
        else {
          lines.push(line);
          line = piece;
        }
      }
    }
    lines.push(line);
  }
  return lines;
}

function chunk(word: string, limit: number): string[] {
  if (word.length <= limit) return [word];
  const pieces: string[] = [];
  for (let start = 0; start < word.length; start += limit) pieces.push(word.slice(start, start + limit));
  return pieces;
}

/**
 * Packs labelled parts (`model: haiku`, `mode: fresh`) into lines no wider than `width`, joined with
 * a separator, the way a details line reads: as many parts per line as fit. A part wider than the
 * line is wrapped on its own.
 */
export function packParts(parts: readonly string[], width: number, separator = " │ "): string[] {
  const lines: string[] = [];
  let line = "";
  for (const part of parts.flatMap((whole) =>
    visibleLength(whole) > width ? wrapText(whole, width) : [whole],
  )) {
    if (line === "") line = part;
    else if (visibleLength(line) + separator.length + visibleLength(part) <= width) line += separator + part;
    else {
      lines.push(line);
      line = part;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** `1 codon`, `2 codons`. */
export function plural(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}
