import { Type, type Static } from '@sinclair/typebox';
import { DeskType, StringEnum } from '../../shared/fields.js';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';

/** Shapes of the floor-plan routes (docs/behaviour.md#floor-plans). */

/** At most this many desks in one PUT (a department with more desks cannot be placed in one go). */
export const PLAN_MAX_POSITIONS = 5000;
/** The longest window GET …/floor-plan/availability answers for. */
export const AVAILABILITY_MAX_WINDOW_DAYS = 31;

const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const Position = Type.Object(
  {
    x: Fraction('Left edge of the unrotated shape, as a fraction of the image width (0–1).'),
    y: Fraction('Top edge of the unrotated shape, as a fraction of the image height (0–1).'),
    width: Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'Fraction of the image width; x + width ≤ 1.' }),
    height: Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'Fraction of the image height; y + height ≤ 1.' }),
    rotation: Type.Number({ minimum: 0, exclusiveMaximum: 360, description: 'Degrees clockwise about the centre of the shape, 0 ≤ rotation < 360.' }),
  },
  { title: 'FloorPlanPosition' },
);
export type PositionDto = Static<typeof Position>;

export const FloorPlanParams = Type.Object({ departmentId: Uuid() });

export const FloorPlanDesk = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    type: DeskType,
    roomId: Uuid(),
    roomName: Type.String(),
    position: Nullable(Position),
  },
  { title: 'FloorPlanDesk', description: 'A desk of the department; `position` null while it is not placed on the plan.' },
);

export const FloorPlanImage = Type.Object(
  {
    url: Type.String({ description: 'Path of the plan image (GET with a token, like every image).' }),
    etag: Type.String({ description: "The image's own ETag: it changes when the image is replaced." }),
  },
  { title: 'FloorPlanImage' },
);

export const FloorPlan = Type.Object(
  {
    departmentId: Uuid(),
    etag: Type.String({ description: 'The same value as the ETag header: send it back in If-Match when replacing the plan.' }),
    image: Nullable(FloorPlanImage),
    desks: Type.Array(FloorPlanDesk, { description: 'Every desk of the department, ordered by room name, desk name, id; placed or not.' }),
  },
  { title: 'FloorPlan' },
);
export type FloorPlanDto = Static<typeof FloorPlan>;

export const PlacedDesk = Type.Object({ deskId: Uuid(), ...Position.properties }, { additionalProperties: false, title: 'PlacedDesk' });

export const ReplaceFloorPlanBody = Type.Object(
  {
    positions: Type.Array(PlacedDesk, {
      maxItems: PLAN_MAX_POSITIONS,
      description: 'The whole plan: every desk to show, once each. Desks of the department left out are taken off the plan.',
    }),
  },
  { additionalProperties: false, title: 'ReplaceFloorPlan' },
);
export type ReplaceFloorPlanBody = Static<typeof ReplaceFloorPlanBody>;

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(Type.String({ maxLength: 200, description: 'The ETag of the plan as read (or * to overwrite whatever is there). Required.' })),
});

export const DESK_STATES = ['FREE', 'PARTLY_FREE', 'BOOKED', 'NOT_BOOKABLE', 'MINE'] as const;
export type DeskState = (typeof DESK_STATES)[number];

export const AvailabilityQuery = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'Start of the window (inclusive), ISO 8601 with Z or an offset.' }),
    to: Type.String({ format: 'date-time', description: `End of the window (exclusive); after from, at most ${AVAILABILITY_MAX_WINDOW_DAYS} days later.` }),
  },
  { additionalProperties: false },
);
export type AvailabilityQuery = Static<typeof AvailabilityQuery>;

export const DeskAvailability = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    type: DeskType,
    roomId: Uuid(),
    roomName: Type.String(),
    roomAvailable: Type.Boolean(),
    position: Position,
    state: StringEnum(DESK_STATES, {
      description:
        'MINE: the caller holds a reservation of it overlapping the window. NOT_BOOKABLE: a FIXED desk or a room that is not available (users cannot book it). ' +
        'FREE: no reservation overlaps the window. BOOKED: reservations cover the whole window. PARTLY_FREE: otherwise; see longestFree. The first that applies, in this order.',
    }),
    longestFree: Nullable(
      Type.Object(
        { startTime: Timestamp(), endTime: Timestamp() },
        { description: 'The longest continuous free stretch inside the window (the earliest of equally long ones); null when none is free.' },
      ),
    ),
  },
  { title: 'DeskAvailability' },
);
export type DeskAvailabilityDto = Static<typeof DeskAvailability>;

export const FloorPlanAvailability = Type.Object(
  {
    departmentId: Uuid(),
    from: Timestamp(),
    to: Timestamp(),
    desks: Type.Array(DeskAvailability, { description: 'Every desk placed on the plan, ordered by room name, desk name, id.' }),
  },
  { title: 'FloorPlanAvailability' },
);
export type FloorPlanAvailabilityDto = Static<typeof FloorPlanAvailability>;
