import type { paths } from './schema.js';

/** Item types of the API, taken from the generated schema so they follow the service. */

type Json<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type PageItem<Response> = Json<Response> extends { content: (infer Item)[] } ? Item : never;

export type User = Json<paths['/api/self']['get']['responses'][200]>;
export type Session = PageItem<paths['/api/sessions']['get']['responses'][200]>;
export type TokenPair = Json<paths['/api/auth/login']['post']['responses'][200]>;
export type Department = PageItem<paths['/api/departments']['get']['responses'][200]>;
export type Room = Json<paths['/api/departments/{departmentId}/rooms/{roomId}']['get']['responses'][200]>;
export type Desk = Room['desks'][number];
export type Equipment = PageItem<paths['/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment']['get']['responses'][200]>;
export type Team = PageItem<paths['/api/teams']['get']['responses'][200]>;
export type TeamMember = PageItem<paths['/api/teams/{teamId}/members']['get']['responses'][200]>;
export type BookablePerson = Json<paths['/api/self/book-for']['get']['responses'][200]>[number];
export type Reservation = PageItem<paths['/api/reservation']['get']['responses'][200]>;
export type Attendance = PageItem<paths['/api/attendance']['get']['responses'][200]>;
export type DeskDay = Json<paths['/api/desks/{deskId}/day']['get']['responses'][200]>;
export type DepartmentSettings = Json<paths['/api/departments/{departmentId}/settings']['get']['responses'][200]>;
export type NoShowStats = Json<paths['/api/stats/no-shows']['get']['responses'][200]>;
export type OutboxMessage = PageItem<paths['/api/admin/outbox']['get']['responses'][200]>;
export type Report = PageItem<paths['/api/report']['get']['responses'][200]>;
export type ReportWithStatus = PageItem<paths['/api/report-statuses']['get']['responses'][200]>;
export type ReportStatus = ReportWithStatus['status'];
export type ReportStatusQuery = NonNullable<paths['/api/report-statuses']['get']['parameters']['query']>;
export type Stats = Json<paths['/api/stats']['get']['responses'][200]>;
export type RoomSearch = NonNullable<paths['/api/search/rooms']['post']['requestBody']>['content']['application/json'];
export type PolicyRule = Json<paths['/api/admin/policies/rules']['get']['responses'][200]>['items'][number];
export type PolicyRuleInput = NonNullable<paths['/api/admin/policies/rules']['post']['requestBody']>['content']['application/json'];
export type PolicyAreaInput = NonNullable<paths['/api/admin/policies/areas']['post']['requestBody']>['content']['application/json'];
export type PolicyArea = Json<paths['/api/admin/policies/areas']['get']['responses'][200]>['items'][number];
export type Allowance = Json<paths['/api/self/allowance']['get']['responses'][200]>;
export type ReportSearch = NonNullable<paths['/api/search/reports']['post']['requestBody']>['content']['application/json'];

export interface PageOf<Item> {
  content: Item[];
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
  first: boolean;
  last: boolean;
  empty: boolean;
}
export type PeopleIn = Json<paths['/api/people/in']['get']['responses'][200]>;
export type PersonIn = PeopleIn['withoutTeam'][number];
export type DisplayBoard = Json<paths['/api/display/{token}']['get']['responses'][200]>;
export type DeskOccupants = Json<paths['/api/people/desks']['get']['responses'][200]>;
