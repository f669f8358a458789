import type { Database } from '../../db/client.js';
import type { Caller } from '../../identity/caller.js';
import type { Clock } from '../../shared/clock.js';
import { isLanguage, LANGUAGES, type Language } from '../../shared/languages.js';
import { firstLanguage } from './preferences.access.js';
import { PreferencesRepository } from './preferences.repository.js';
import type { PreferencesBody, PreferencesDto } from './preferences.schemas.js';

/** The caller's own preferences (docs/i18n.md#choosing-the-language): no route takes another person's id. */
export class PreferencesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** The server's default language, where the organisation set none (preferences.access.ts defaultLanguage). */
    private readonly fallback: Language,
  ) {}

  /** One statement: the chosen language and the organisation's default, and from them the one in effect. */
  async get(caller: Caller): Promise<PreferencesDto> {
    const { chosen, organisation } = await new PreferencesRepository(this.db).language(caller.user.id);
    const language = isLanguage(chosen) ? chosen : null;
    const defaultLanguage = firstLanguage(this.fallback, organisation);
    return { language, effectiveLanguage: language ?? defaultLanguage, defaultLanguage, languages: [...LANGUAGES] };
  }

  async update(caller: Caller, body: PreferencesBody): Promise<PreferencesDto> {
    await new PreferencesRepository(this.db).setLanguage(caller.user.id, body.language, this.clock.now());
    return this.get(caller);
  }
}
