import { and, count, eq, getTableColumns, ilike, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { reports } from '../../db/schema.js';
import { columnsAs, fromDriver, orderByClauses, pageUnderParent, totalOfPage } from '../../db/paging.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';
import { containsPattern } from '../../shared/text.js';

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = Pick<ReportRow, 'title' | 'description' | 'reportedBy' | 'departmentId' | 'roomId' | 'deskId' | 'equipmentId' | 'createdAt'>;

export const REPORT_SORTABLE = ['id', 'title', 'createdAt', 'reportedBy'] as const;

const sortColumns = {
  id: reports.id,
  title: reports.title,
  createdAt: reports.createdAt,
  reportedBy: reports.reportedBy,
};

export interface ReportFilter {
  reportedBy?: string;
  roomId?: string;
  status?: ReportRow['status'];
  departmentId?: string;
  /** Substrings of the title and the description, any case (the trigram indexes serve them). */
  title?: string;
  description?: string;
}

/** A status an admin sets (docs/behaviour.md#report-status). */
export interface StatusChange {
  status: ReportRow['status'];
  note: string | null;
  changedAt: Date;
  changedBy: string;
}

/** The ids a new report names, as the client sent them (undefined: not given). */
export interface PlaceIds {
  departmentId?: string;
  roomId?: string;
  deskId?: string;
  equipmentId?: string;
}

/**
 * What the database knows about the ids of a new report. Each place is the given one or, when
 * not given, the parent of the more specific place below it; `…Of` columns are the stored parent
 * of that place (null where the place does not exist).
 */
export interface ResolvedPlace {
  userId: string | null;
  equipmentId: string | null;
  deskOfEquipment: string | null;
  deskId: string | null;
  roomOfDesk: string | null;
  roomId: string | null;
  departmentOfRoom: string | null;
  departmentId: string | null;
}

export class ReportsRepository {
  constructor(private readonly db: Database) {}

  /** One statement, always one row: the user and the place chain, joined from the most specific id upward. */
  async resolve(reportedBy: string, given: PlaceIds): Promise<ResolvedPlace> {
    const [row] = await queryRows<ResolvedPlace>(
      this.db,
      sql`select u.id as "userId",
                 e.id as "equipmentId", e.desk_id as "deskOfEquipment",
                 d.id as "deskId", d.room_id as "roomOfDesk",
                 r.id as "roomId", r.department_id as "departmentOfRoom",
                 dep.id as "departmentId"
          from (select ${reportedBy}::uuid as reported_by, ${given.equipmentId ?? null}::uuid as equipment_id, ${given.deskId ?? null}::uuid as desk_id,
                       ${given.roomId ?? null}::uuid as room_id, ${given.departmentId ?? null}::uuid as department_id) as given
          left join users u on u.id = given.reported_by
          left join equipment e on e.id = given.equipment_id
          left join desks d on d.id = coalesce(given.desk_id, e.desk_id)
          left join rooms r on r.id = coalesce(given.room_id, d.room_id)
          left join departments dep on dep.id = coalesce(given.department_id, r.department_id)`,
    );
    return row!;
  }

  async insert(values: NewReport): Promise<ReportRow> {
    const [row] = await this.db.insert(reports).values(values).returning();
    return row!;
  }

  async findById(id: string): Promise<ReportRow | undefined> {
    const [row] = await this.db.select().from(reports).where(eq(reports.id, id)).limit(1);
    return row;
  }

  /**
   * Sets a report's status and note, unless they are what is stored already. One statement; the row
   * locked by the update, so two admins changing it at once take turns and each sees the other's
   * status as the one it replaced. Answers the row before and after, or undefined when no report
   * has this id; `after` is undefined when nothing changed.
   */
  async setStatus(id: string, change: StatusChange): Promise<{ before: ReportRow; after: ReportRow | undefined } | undefined> {
    const [before] = await this.db.select().from(reports).where(eq(reports.id, id)).for('update');
    if (!before) return undefined;
    if (before.status === change.status && before.statusNote === change.note) return { before, after: undefined };
    const [after] = await this.db
      .update(reports)
      .set({ status: change.status, statusNote: change.note, statusChangedAt: change.changedAt, statusChangedBy: change.changedBy })
      .where(eq(reports.id, id))
      .returning();
    return { before, after };
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(reports).where(eq(reports.id, id)).returning({ id: reports.id });
    return rows.length > 0;
  }

  /**
   * Default order: newest first, then id. One statement: the page, each row carrying the total as
   * an uncorrelated subquery (an index-only count, computed once). Only a page past the end, which
   * has no row to carry it, counts apart.
   */
  async page(filter: ReportFilter, request: PageRequest): Promise<{ rows: ReportRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (filter.reportedBy !== undefined) conditions.push(eq(reports.reportedBy, filter.reportedBy));
    if (filter.roomId !== undefined) conditions.push(eq(reports.roomId, filter.roomId));
    if (filter.status !== undefined) conditions.push(eq(reports.status, filter.status));
    if (filter.departmentId !== undefined) conditions.push(eq(reports.departmentId, filter.departmentId));
    if (filter.title !== undefined) conditions.push(ilike(reports.title, containsPattern(filter.title)));
    if (filter.description !== undefined) conditions.push(ilike(reports.description, containsPattern(filter.description)));
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    const counting = this.db.select({ total: count() }).from(reports).where(where);
    const rows = await this.db
      .select({ ...getTableColumns(reports), total: sql<number>`${counting}::int`.mapWith(Number) })
      .from(reports)
      .where(where)
      .orderBy(...orderByClauses(request, sortColumns, [sql`${reports.createdAt} desc`], reports.id))
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => (await counting)[0]?.total ?? 0);
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }

  /**
   * The reports of a room of a department, their total, and whether the department and the room
   * exist, in one statement (pageUnderParent). Default order as in page().
   */
  async pageOfRoom(
    departmentId: string,
    roomId: string,
    request: PageRequest,
  ): Promise<{ department: boolean; room: boolean; rows: ReportRow[]; total: number }> {
    const columns = getTableColumns(reports);
    const where = eq(reports.roomId, roomId);
    const found = await pageUnderParent<Record<string, unknown>, { roomId: string | null }>(this.db, {
      parent: sql`select r.id as "roomId" from departments dep
                  left join rooms r on r.id = ${roomId}::uuid and r.department_id = dep.id
                  where dep.id = ${departmentId}::uuid`,
      page: sql`select ${columnsAs(columns)} from reports where ${where}
                order by ${sql.join(orderByClauses(request, sortColumns, [sql`${reports.createdAt} desc`], reports.id), sql`, `)}
                limit ${request.size} offset ${offsetOf(request)}`,
      total: sql`select count(*) from reports where ${where}`,
    });
    if (!found) return { department: false, room: false, rows: [], total: 0 };
    return {
      department: true,
      room: found.parent.roomId !== null,
      rows: found.rows.map((row) => fromDriver<ReportRow>(columns, row)),
      total: found.total,
    };
  }
}
