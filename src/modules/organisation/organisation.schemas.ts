import { Type, type Static } from '@sinclair/typebox';
import { LanguageCode, StringEnum, Timestamp } from '../../shared/schemas.js';

export const NAME_VISIBILITIES = ['everyone', 'teams', 'nobody'] as const;
export type NameVisibility = (typeof NAME_VISIBILITIES)[number];

const NameVisibilitySchema = StringEnum(NAME_VISIBILITIES, {
  description:
    'Whose names colleagues see on bookings (docs/people.md#what-is-shown-to-whom): everyone: every signed-in colleague sees names; teams: only people who share a team with the viewer; nobody: a booking shows only "booked". Default nobody.',
});

const WorksCouncilMode = Type.Boolean({
  description:
    'Aggregates only: no per-person attendance (check-in, no-show) is shown to anyone but the person, admins included; attendance appears as counts (docs/people.md#works-council-mode). Default true.',
});

const DefaultLanguage = Type.Union([LanguageCode(), Type.Null()], {
  description:
    "The language of everyone who has chosen none on their profile: their pages, mails, pushes, calendar entries (docs/i18n.md#choosing-the-language). Null (the default): the server's DEFAULT_LANGUAGE.",
});

export const OrganisationSettings = Type.Object(
  {
    nameVisibility: NameVisibilitySchema,
    worksCouncilMode: WorksCouncilMode,
    defaultLanguage: DefaultLanguage,
    modifiedAt: Timestamp('When an admin last changed them.'),
  },
  { title: 'OrganisationSettings' },
);
export type OrganisationSettingsDto = Static<typeof OrganisationSettings>;

export const PatchOrganisationSettingsBody = Type.Object(
  { nameVisibility: Type.Optional(NameVisibilitySchema), worksCouncilMode: Type.Optional(WorksCouncilMode), defaultLanguage: Type.Optional(DefaultLanguage) },
  { additionalProperties: false },
);
export type PatchOrganisationSettingsBody = Static<typeof PatchOrganisationSettingsBody>;
