import { Type, type Static } from '@sinclair/typebox';
import { Timestamp, Uuid } from '../../shared/schemas.js';

/** Most delegates one person may name (docs/policies.md#booking-for-someone-else). */
export const DELEGATES_PER_PERSON = 20;

export const Delegate = Type.Object(
  {
    userId: Uuid('The delegate: the person who may book for the caller.'),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    createdAt: Timestamp('When the caller named them.'),
  },
  { title: 'Delegate' },
);
export type DelegateDto = Static<typeof Delegate>;
export const Delegates = Type.Array(Delegate, { maxItems: DELEGATES_PER_PERSON });

export const AddDelegateBody = Type.Object({ userId: Uuid('The person who may book for the caller (not the caller).') }, { additionalProperties: false });
export type AddDelegateBody = Static<typeof AddDelegateBody>;

export const DelegateParams = Type.Object({ userId: Uuid() });
