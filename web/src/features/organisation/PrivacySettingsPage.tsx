import { useTranslation } from 'react-i18next';
import { Alert, Checkbox, Loaded, PageHeader, SelectField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { LANGUAGE_NAMES, LANGUAGES } from '../../lib/i18n.js';
import { errorText } from '../../lib/problems.js';
import { useOrganisationSettings, useSaveOrganisationSettings } from './queries.js';

/** The choices of who sees names, each with a label and a text under `privacySettings.mode.<value>` in people.json. */
const MODES = ['nobody', 'teams', 'everyone'] as const;

/**
 * Admins: the organisation's settings — what colleagues see of each other, works-council mode
 * (docs/people.md#the-organisations-settings) and the default language (docs/i18n.md#choosing-the-language).
 */
export function PrivacySettingsPage() {
  const { t } = useTranslation('people');
  useTitle(t('privacySettings.title'));
  const settings = useOrganisationSettings();
  const saving = useSaveOrganisationSettings();
  const failure = errorText(saving.error, t('privacySettings.subject'));
  return (
    <div className="page page-narrow">
      <PageHeader title={t('privacySettings.title')} />
      {failure && <Alert kind="error">{failure}</Alert>}
      {saving.isSuccess && <Alert kind="success">{t('privacySettings.saved')}</Alert>}
      <Loaded query={settings} label={t('privacySettings.loading')}>
        {(current) => (
          <>
            <section className="panel">
              <fieldset>
                <legend>{t('privacySettings.legend')}</legend>
                {MODES.map((mode) => (
                  <label key={mode} className="checkbox">
                    <input
                      type="radio"
                      name="nameVisibility"
                      value={mode}
                      checked={current.nameVisibility === mode}
                      disabled={saving.isPending}
                      onChange={() => saving.mutate({ body: { nameVisibility: mode } })}
                    />
                    <span>
                      <strong>{t(`privacySettings.mode.${mode}.label`)}</strong>
                      {t('privacySettings.labelSeparator')}
                      {t(`privacySettings.mode.${mode}.text`)}
                    </span>
                  </label>
                ))}
              </fieldset>
              <p className="muted">{t('privacySettings.note')}</p>
            </section>
            <section className="panel" aria-labelledby="council-heading">
              <h2 id="council-heading">{t('privacySettings.council')}</h2>
              <Checkbox
                label={t('privacySettings.aggregates')}
                checked={current.worksCouncilMode}
                disabled={saving.isPending}
                onChange={(event) => saving.mutate({ body: { worksCouncilMode: event.target.checked } })}
              />
            </section>
            <section className="panel" aria-labelledby="language-heading">
              <h2 id="language-heading">{t('privacySettings.language.heading')}</h2>
              <SelectField
                label={t('privacySettings.language.label')}
                hint={t('privacySettings.language.hint')}
                value={current.defaultLanguage ?? ''}
                disabled={saving.isPending}
                onChange={(event) => {
                  const chosen = LANGUAGES.find((language) => language === event.target.value) ?? null;
                  saving.mutate({ body: { defaultLanguage: chosen } });
                }}
              >
                <option value="">{t('privacySettings.language.server')}</option>
                {LANGUAGES.map((language) => (
                  <option key={language} value={language} lang={language}>
                    {LANGUAGE_NAMES[language]}
                  </option>
                ))}
              </SelectField>
            </section>
          </>
        )}
      </Loaded>
    </div>
  );
}
