import { Kind, Type, TypeRegistry } from '@sinclair/typebox';

/**
 * Field schemas shared by the server's routes and the web app's forms, so that a limit is written
 * once. The web app bundles this file: it may import TypeBox and nothing else (a test checks).
 */

/** Names, e-mail, location, building, titles. */
export const SHORT_TEXT_MAX = 200;
/** Descriptions. */
export const LONG_TEXT_MAX = 10_000;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const FLOOR_MIN = -1000;
export const FLOOR_MAX = 10_000;

// TypeBox's own checker (the web app's forms) needs to know the kind; Ajv (the server) reads `enum`.
TypeRegistry.Set<{ enum: readonly string[] }>('StringEnum', (schema, value) => typeof value === 'string' && schema.enum.includes(value));

/**
 * A string enum written with the `enum` keyword: one validation error naming the field (a union
 * of literals gives one per value) and a plain `enum` in the OpenAPI document.
 */
export const StringEnum = <const T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ [Kind]: 'StringEnum', type: 'string', enum: [...values], ...options });

export const Name = (description: string) =>
  Type.String({ minLength: 1, maxLength: SHORT_TEXT_MAX, pattern: '\\S', description: `${description} (1–${SHORT_TEXT_MAX} characters, not blank).` });

export const Email = () =>
  Type.String({ format: 'email', maxLength: SHORT_TEXT_MAX, description: `E-mail address, unique regardless of case (at most ${SHORT_TEXT_MAX} characters).` });

/** An e-mail address typed to sign in or to ask for a reset link: any text, matched ignoring case. */
export const EmailInput = () => Type.String({ minLength: 1, maxLength: SHORT_TEXT_MAX, description: 'E-mail address (any case).' });

/** A new password. */
export const Password = (description = 'Password') =>
  Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, description: `${description} (${PASSWORD_MIN}–${PASSWORD_MAX} characters).` });

/** A password typed to prove who one is (sign-in, the current password): only its length is bounded. */
export const PasswordInput = () => Type.String({ minLength: 1, maxLength: PASSWORD_MAX });

export const Floor = () =>
  Type.Integer({ minimum: FLOOR_MIN, maximum: FLOOR_MAX, description: `Floor number (${FLOOR_MIN} to ${FLOOR_MAX}; negative below ground).` });

export const EquipmentDescription = () =>
  Type.String({ maxLength: LONG_TEXT_MAX, description: `Free text (0–${LONG_TEXT_MAX} characters; may be empty; kept as given).` });

export const ReportDescription = () =>
  Type.String({ minLength: 1, maxLength: LONG_TEXT_MAX, pattern: '\\S', description: `What is wrong (1–${LONG_TEXT_MAX} characters, not blank).` });

/** What became of a defect report (docs/behaviour.md#report-status); admins set it. */
export const REPORT_STATUSES = ['OPEN', 'IN_PROGRESS', 'RESOLVED'] as const;
export const REPORT_NOTE_MAX = 2000;

export const ReportStatusValue = () => StringEnum(REPORT_STATUSES, { description: 'OPEN (new, the default), IN_PROGRESS or RESOLVED.' });

/** The admins' note to the reporter; empty or left out: no note. */
export const ReportStatusNote = () =>
  Type.String({ maxLength: REPORT_NOTE_MAX, description: `A note the reporter sees with the status (0–${REPORT_NOTE_MAX} characters; empty: none).` });

export const DESK_TYPES = ['FLEX', 'FIXED'] as const;
export const EQUIPMENT_TYPES = ['DOCKING_STATION', 'MONITOR', 'KEYBOARD', 'MOUSE', 'HEADSET', 'WEBCAM', 'CHAIR', 'OTHER'] as const;
export const ROLES = ['USER', 'ADMIN'] as const;

export const DeskType = StringEnum(DESK_TYPES, {
  description: 'FLEX: a shared desk anyone may book (the default). FIXED: assigned by an admin; users cannot book it.',
});
export const EquipmentType = StringEnum(EQUIPMENT_TYPES, { description: EQUIPMENT_TYPES.join(', ') + '.' });
export const Role = StringEnum(ROLES, { description: 'USER or ADMIN.' });
