/**
 * Characters that change how text looks without being seen: C0 and C1 controls (NUL, CR, LF,
 * ESC …), bidi overrides, embeddings and isolates (U+202A–U+202E, U+2066–U+2069), the direction
 * marks (U+200E, U+200F, U+061C), the zero-width space and word joiner (U+200B, U+2060) and the BOM
 * (U+FEFF). A right-to-left override makes `x\u202Egpj.html` read as `xlmth.jpg`. The zero-width
 * joiner and non-joiner (U+200C, U+200D) stay: emoji sequences (👩‍💻) and scripts such as Persian
 * and Devanagari need them.
 */
const unsafeCharacters = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/**
 * Removes invisible controls and bidi overrides from a name (a display name, a chat name, an
 * uploaded file's name), keeping every visible character, accents and scripts included.
 *
 * @example stripUnsafeCharacters('x\u202Egpj.html') // 'xgpj.html'
 */
export function stripUnsafeCharacters(text: string): string {
  return text.replace(unsafeCharacters, '');
}
