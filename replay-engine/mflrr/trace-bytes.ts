// The bytes a `.mflrr` line is made of, for the code that reads traces as bytes.
export const LF = 0x0a;
export const CR = 0x0d;
export const SP = 0x20;
/** `S`: a schedule op. */
export const TAG_S = 0x53;
/** `I`: an I/O value. */
export const TAG_I = 0x49;
