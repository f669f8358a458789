// The server's own field schemas (limits, formats, enums), which the forms check before sending.
export * from '../../../src/shared/fields.js';
