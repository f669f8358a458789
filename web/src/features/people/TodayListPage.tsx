import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PersonIn } from '../../api/types.js';
import { Loaded, PageHeader } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { formatDay, formatRangeIn } from '../../lib/time.js';
import { OfficePicker, useFirstOffice } from '../inventory/OfficePicker.js';
import { usePeopleIn } from './queries.js';
import './styles.css';

/** Everyone booked in an office today, by name, for evacuation and first aiders (docs/people.md#todays-list). Admins only. */
export function TodayListPage() {
  const { t } = useTranslation('people');
  useTitle(t('today.pageTitle'));
  const first = useFirstOffice();
  const [chosen, setChosen] = useState('');
  const departmentId = chosen || first;
  // No date: the service answers today in the office's time zone.
  const list = usePeopleIn(departmentId);
  return (
    <div className="page">
      <PageHeader title={t('today.title')}>
        <button type="button" className="no-print" onClick={() => window.print()}>
          {t('today.print')}
        </button>
      </PageHeader>
      <div className="field-row no-print">
        <OfficePicker value={departmentId} onChange={setChosen} />
      </div>
      {departmentId && (
        <Loaded query={list} label={t('today.loading')}>
          {(data) => {
            // One line per person and booking, by name; a person in several teams once.
            const seen = new Map<string, PersonIn>();
            for (const person of [...data.teams.flatMap((group) => group.people), ...data.withoutTeam])
              seen.set(`${person.userId}-${person.startTime}`, person);
            const people = [...seen.values()].sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName));
            return (
              <section className="today-list" aria-labelledby="today-heading">
                <h2 id="today-heading">{t('today.heading', { day: formatDay(data.date), count: data.booked })}</h2>
                {data.anonymous > 0 && <p>{t('today.anonymous', { count: data.anonymous })}</p>}
                <div className="table-scroll" role="region" aria-label={t('today.table')} tabIndex={0}>
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">{t('common:fields.name')}</th>
                        <th scope="col">{t('common:fields.desk')}</th>
                        <th scope="col">{t('common:fields.room')}</th>
                        <th scope="col">{t('today.time')}</th>
                        <th scope="col">{t('today.present')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {people.map((person) => (
                        <tr key={`${person.userId}-${person.startTime}`}>
                          <td>{t('today.name', { first: person.firstName, last: person.lastName })}</td>
                          <td>{person.deskName ?? '—'}</td>
                          <td>{person.roomName ?? '—'}</td>
                          <td>{formatRangeIn(person.startTime, person.endTime, data.timeZone)}</td>
                          <td>{person.checkedIn === true ? t('today.checkedIn') : person.checkedIn === false ? t('today.notYet') : ''}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </section>
            );
          }}
        </Loaded>
      )}
    </div>
  );
}
