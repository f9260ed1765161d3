// Python's string operations where the reference code uses them to lay out a prompt, so a prompt
// built here has the same bytes: `str.strip()` and `s[:n]` differ from JS's trim() and slice()
// at the edges (which characters are whitespace; code points against UTF-16 units).

/** The characters for which Python's `str.isspace()` is true (JS's trim() also strips U+FEFF and
 * keeps U+001C–U+001F and U+0085). */
const PYTHON_WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** Python's `text.strip()`. */
export function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PYTHON_WHITESPACE.has(text.charCodeAt(start))) start++;
  while (end > start && PYTHON_WHITESPACE.has(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Python's `text[:n]`: the first `n` code points (a character outside the BMP is one, where
 * `slice` counts two UTF-16 units). */
export function pythonPrefix(text: string, n: number): string {
  if (text.length <= n) return text;
  let units = 0;
  for (let points = 0; points < n && units < text.length; points++) {
    const code = text.charCodeAt(units);
    const pair = code >= 0xd800 && code <= 0xdbff && units + 1 < text.length;
    const next = pair ? text.charCodeAt(units + 1) : 0;
    units += pair && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, units);
}

/** Python's `len(text)`: code points. */
export function pythonLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}
