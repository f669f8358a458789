import type { Database } from '../../db/client.js';
import type { Caller } from '../../identity/caller.js';
import type { Clock } from '../../shared/clock.js';
import { isLanguage, LANGUAGES, type Language } from '../../shared/languages.js';
import { PreferencesRepository } from './preferences.repository.js';
import type { PreferencesBody, PreferencesDto } from './preferences.schemas.js';

/** The caller's own preferences (docs/i18n.md#choosing-the-language): no route takes another person's id. */
export class PreferencesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** The server's default language (preferences.access.ts defaultLanguage). */
    private readonly fallback: Language,
  ) {}

  /** One statement: the chosen language, and from it the one in effect. */
  async get(caller: Caller): Promise<PreferencesDto> {
    const chosen = await new PreferencesRepository(this.db).language(caller.user.id);
    const language = isLanguage(chosen) ? chosen : null;
    return { language, effectiveLanguage: language ?? this.fallback, defaultLanguage: this.fallback, languages: [...LANGUAGES] };
  }

  async update(caller: Caller, body: PreferencesBody): Promise<PreferencesDto> {
    await new PreferencesRepository(this.db).setLanguage(caller.user.id, body.language, this.clock.now());
    return this.get(caller);
  }
}
