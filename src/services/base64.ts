// Go's base64.StdEncoding shape, checked without a regular expression that repeats a group: such an
// expression recurses once per quad and overflows the stack on a few megabytes of input.

/** Standard padded base64: whole quads of the standard alphabet, `=` only as the last one or two characters. */
export const isStdBase64 = (text: string): boolean =>
  text.length % 4 === 0 && /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text);
