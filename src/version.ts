/** The library's version (package.json's; tests/unit/capacity-memory.test.ts checks they agree). */
export const LIBRARY_VERSION = '0.1.0';
