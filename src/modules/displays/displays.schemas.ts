import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../shared/schemas.js';

/** Most lobby displays one office may have (docs/people.md#the-lobby-display). */
export const DISPLAYS_PER_OFFICE = 20;

export const Display = Type.Object(
  { id: Uuid(), departmentId: Uuid(), name: Type.String(), createdAt: Timestamp() },
  { title: 'Display', description: 'A lobby display of an office; its token is shown only once, when created.' },
);
export type DisplayDto = Static<typeof Display>;
export const Displays = Type.Array(Display, { maxItems: DISPLAYS_PER_OFFICE });

export const CreatedDisplay = Type.Object(
  {
    display: Display,
    token: Type.String({ description: 'The secret of the display: shown this once, stored only as its SHA-256.' }),
    url: Type.String({ description: 'The page to open on the display: PUBLIC_URL/display/<token>.' }),
  },
  { title: 'CreatedDisplay' },
);
export type CreatedDisplayDto = Static<typeof CreatedDisplay>;

export const CreateDisplayBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, description: 'Where it hangs, e.g. "Lobby, ground floor".' }) },
  { additionalProperties: false },
);
export type CreateDisplayBody = Static<typeof CreateDisplayBody>;

export const DepartmentParams = Type.Object({ departmentId: Uuid() });
export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const DisplayBoard = Type.Object(
  {
    department: Type.Object({ id: Uuid(), location: Type.String(), building: Type.String(), floor: Type.Integer() }),
    timeZone: Type.String(),
    date: Type.String({ format: 'date', description: "Today in the office's time zone." }),
    generatedAt: Timestamp('The minute the board was computed; it is kept for that minute.'),
    names: Type.Boolean({ description: 'Whether the organisation shows names to everyone (only then can the display show any).' }),
    free: Type.Integer({ minimum: 0, description: 'Desks free now.' }),
    booked: Type.Integer({ minimum: 0, description: 'Desks booked now.' }),
    desks: Type.Array(
      Type.Object({
        id: Uuid(),
        name: Type.String(),
        roomId: Uuid(),
        roomName: Type.String(),
        position: Nullable(
          Type.Object(
            { x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number(), rotation: Type.Number() },
            { description: 'On the plan, in fractions of its size; null: not placed.' },
          ),
        ),
        state: StringEnum(['FREE', 'BOOKED'] as const, { description: 'Now.' }),
        bookings: Type.Array(Type.Object({ startTime: Timestamp(), endTime: Timestamp(), name: Nullable(Type.String({ description: 'null: "booked".' })) }), {
          description: "Today's bookings of the desk.",
        }),
      }),
    ),
  },
  { title: 'DisplayBoard' },
);
export type DisplayBoardDto = Static<typeof DisplayBoard>;
