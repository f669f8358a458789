import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../shared/schemas.js';

export const DailyCount = Type.Object({ date: Timestamp('The day, at 00:00:00Z.'), count: Type.Integer() }, { title: 'DailyCount' });

export const Statistics = Type.Object(
  {
    totalDesks: Type.Integer(),
    totalRooms: Type.Integer(),
    totalDepartments: Type.Integer(),
    totalUsers: Type.Integer(),
    totalReports: Type.Integer(),
    totalReservations: Type.Integer(),
    totalEquipment: Type.Integer(),
    dailyCreatedReservationsLast30Days: Type.Array(DailyCount, { description: 'Today and the 29 UTC days before it, oldest first; by creation time.' }),
    dailyCreatedReportsLast30Days: Type.Array(DailyCount, { description: 'Today and the 29 UTC days before it, oldest first; by creation time.' }),
    dailyReservationsLast15DaysAndNext15Days: Type.Array(DailyCount, {
      description: 'today−15 to today+15 (31 UTC days), oldest first; reservations whose [startTime, endTime) overlaps the day.',
    }),
  },
  { title: 'Statistics' },
);
export type StatisticsDto = Static<typeof Statistics>;
