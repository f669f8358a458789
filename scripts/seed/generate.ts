import {
  DEFECT_FOLLOW_UPS,
  DEPARTMENT_DEFECTS,
  DESK_DEFECTS,
  DESK_KIT,
  EQUIPMENT_DEFECTS,
  EQUIPMENT_MODELS,
  EXTRA_EQUIPMENT,
  FIRST_NAMES,
  LAST_NAMES,
  ROOM_DEFECTS,
  ROOM_KINDS,
  SITES,
  type Defect,
  type EquipmentType,
} from './catalog.js';
import type { CopyValue } from './bulk.js';
import { apportion, Random } from './random.js';

/** How many rows of each table one run writes. */
export interface SeedSizes {
  departments: number;
  rooms: number;
  desks: number;
  equipment: number;
  users: number;
  reservations: number;
  reports: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Share of desks that are FIXED, of rooms that are unavailable, of reservations that are admin assignments ('fixed'). */
const FIXED_DESK_SHARE = 0.05;
const UNAVAILABLE_ROOM_SHARE = 0.015;
const FIXED_RESERVATION_SHARE = 0.04;

/** Reservation slots, whole hours in UTC. */
const SLOTS = {
  fullDay: { from: 8, to: 17, mask: 0b11 },
  morning: { from: 8, to: 12, mask: 0b01 },
  afternoon: { from: 13, to: 17, mask: 0b10 },
} as const;
interface Slot {
  from: number;
  to: number;
  /** Bit 1: the morning is taken, bit 2: the afternoon. */
  mask: number;
}
/** How often each slot is booked. */
const SLOT_CHOICE: readonly (readonly [Slot, number])[] = [
  [SLOTS.fullDay, 55],
  [SLOTS.morning, 25],
  [SLOTS.afternoon, 20],
];

/** Relative occupancy Monday (1) to Friday (5): the middle of the week is busiest. */
const WEEKDAY_WEIGHT: Record<number, number> = { 1: 0.8, 2: 1.15, 3: 1.2, 4: 1.1, 5: 0.7 };

/** The office is quieter over Christmas and in August. */
function seasonalWeight(day: Date): number {
  const month = day.getUTCMonth();
  const date = day.getUTCDate();
  if ((month === 11 && date >= 24) || (month === 0 && date === 1)) return 0.25;
  if (month === 7) return 0.75;
  return 1;
}

export interface Department {
  id: string;
  location: string;
  building: string;
  floor: number;
  createdAt: Date;
}
export interface Room {
  id: string;
  department: number;
  name: string;
  available: boolean;
  createdAt: Date;
}
export interface Desk {
  id: string;
  room: number;
  name: string;
  type: 'FLEX' | 'FIXED';
  createdAt: Date;
}
export interface EquipmentItem {
  id: string;
  desk: number;
  type: EquipmentType;
  name: string;
  description: string;
  createdAt: Date;
}
export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  createdAt: Date;
}

/** Inventory and users are small enough to keep in memory; reservations and reports are streamed. */
export interface World {
  departments: Department[];
  rooms: Room[];
  desks: Desk[];
  equipment: EquipmentItem[];
  users: User[];
}

export const seededUserEmail = (index: number) => `user${String(index + 1).padStart(5, '0')}@example.test`;

/** Whole seconds: timestamps read like ones a person produced. */
const atSecond = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

/** Chooses exactly `count` distinct indices of `length` items at random. */
function chooseIndices(random: Random, length: number, count: number): Set<number> {
  const all = Array.from({ length }, (_, i) => i);
  return new Set(random.shuffle(all).slice(0, count));
}

export function buildWorld(sizes: SeedSizes, seed: number, now: Date): World {
  // The estate existed well before the bookings: created two to three years ago, parents first.
  const origin = now.getTime() - 3 * 365 * DAY;
  const createdAt = (random: Random, offsetDays: number, spreadDays: number) => atSecond(origin + (offsetDays + random.next() * spreadDays) * DAY);

  const departmentRandom = new Random(seed, 'departments');
  // One floor of each site in turn, so even a few departments span several cities; beyond the
  // last floor the sites repeat as annexes.
  const places: { location: string; building: string; floor: number }[] = [];
  for (let round = 0; round < Math.max(...SITES.map((site) => site.floors.length)); round++) {
    for (const site of SITES) if (round < site.floors.length) places.push({ location: site.location, building: site.building, floor: site.floors[round]! });
  }
  const departments: Department[] = Array.from({ length: sizes.departments }, (_, index) => {
    const place = places[index % places.length]!;
    const annex = Math.floor(index / places.length);
    return {
      id: departmentRandom.uuid(),
      location: place.location,
      building: annex === 0 ? place.building : `${place.building}, Annex ${annex}`,
      floor: place.floor,
      createdAt: createdAt(departmentRandom, 0, 10),
    };
  });

  const roomRandom = new Random(seed, 'rooms');
  const roomsPerDepartment = apportion(
    sizes.rooms,
    departments.map(() => 0.6 + 0.8 * roomRandom.next()),
  );
  const unavailable = chooseIndices(roomRandom, sizes.rooms, sizes.rooms >= 2 ? Math.max(1, Math.round(sizes.rooms * UNAVAILABLE_ROOM_SHARE)) : 0);
  const rooms: Room[] = [];
  const roomDeskWeight: number[] = [];
  departments.forEach((department, departmentIndex) => {
    for (let n = 1; n <= roomsPerDepartment[departmentIndex]!; n++) {
      const [kind, deskWeight] = roomRandom.weighted(ROOM_KINDS.map((entry) => [entry, entry[2]] as const));
      roomDeskWeight.push(deskWeight * (0.7 + 0.6 * roomRandom.next()));
      rooms.push({
        id: roomRandom.uuid(),
        department: departmentIndex,
        name: `${kind} ${department.floor}.${String(n).padStart(2, '0')}`,
        available: !unavailable.has(rooms.length),
        createdAt: createdAt(roomRandom, 15, 10),
      });
    }
  });

  const deskRandom = new Random(seed, 'desks');
  const desksPerRoom = apportion(sizes.desks, roomDeskWeight);
  const fixed = chooseIndices(deskRandom, sizes.desks, Math.round(sizes.desks * FIXED_DESK_SHARE));
  const desks: Desk[] = [];
  rooms.forEach((room, roomIndex) => {
    const roomCode = room.name.slice(room.name.lastIndexOf(' ') + 1);
    for (let n = 1; n <= desksPerRoom[roomIndex]!; n++) {
      desks.push({
        id: deskRandom.uuid(),
        room: roomIndex,
        name: `Desk ${roomCode}-${String(n).padStart(2, '0')}`,
        type: fixed.has(desks.length) ? 'FIXED' : 'FLEX',
        createdAt: createdAt(deskRandom, 30, 10),
      });
    }
  });

  const equipmentRandom = new Random(seed, 'equipment');
  const itemsPerDesk = apportion(
    sizes.equipment,
    desks.map(() => 0.1 + 1.8 * equipmentRandom.next()),
  );
  const equipment: EquipmentItem[] = [];
  desks.forEach((_, deskIndex) => {
    // One model per type and desk: a desk's two monitors match.
    const models = new Map<EquipmentType, readonly [string, string]>();
    // Extras come once each (a second monitor included); a desk with even more gets odds and ends.
    let extras = [...EXTRA_EQUIPMENT];
    for (let n = 0; n < itemsPerDesk[deskIndex]!; n++) {
      let type = DESK_KIT[n];
      if (type === undefined) {
        type = extras.length > 0 ? equipmentRandom.weighted(extras) : 'OTHER';
        extras = extras.filter(([candidate]) => candidate !== type);
      }
      if (!models.has(type)) models.set(type, equipmentRandom.pick(EQUIPMENT_MODELS[type]));
      const [name, description] = models.get(type)!;
      equipment.push({ id: equipmentRandom.uuid(), desk: deskIndex, type, name, description, createdAt: createdAt(equipmentRandom, 45, 30) });
    }
  });

  const userRandom = new Random(seed, 'users');
  const users: User[] = Array.from({ length: sizes.users }, (_, index) => ({
    id: userRandom.uuid(),
    email: seededUserEmail(index),
    firstName: userRandom.pick(FIRST_NAMES),
    lastName: userRandom.pick(LAST_NAMES),
    createdAt: createdAt(userRandom, 60, 600),
  }));

  return { departments, rooms, desks, equipment, users };
}

export const departmentRows = (world: World) => world.departments.map((d) => [d.id, d.location, d.building, d.floor, d.createdAt, d.createdAt]);
export const roomRows = (world: World) => world.rooms.map((r) => [r.id, world.departments[r.department]!.id, r.name, r.available, r.createdAt, r.createdAt]);
export const deskRows = (world: World) => world.desks.map((d) => [d.id, world.rooms[d.room]!.id, d.name, d.type, d.createdAt, d.createdAt]);
export const equipmentRows = (world: World) =>
  world.equipment.map((e) => [e.id, world.desks[e.desk]!.id, e.name, e.description, e.type, e.createdAt, e.createdAt]);
export const userRows = (world: World, passwordHash: string) =>
  world.users.map((u) => [u.id, u.email, u.firstName, u.lastName, 'USER', true, false, passwordHash, false, u.createdAt, u.createdAt]);

/** UTC midnights of the workdays from six months before today to six months after (exclusive). */
export function workdays(now: Date): Date[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today);
  first.setUTCMonth(first.getUTCMonth() - 6);
  const end = new Date(today);
  end.setUTCMonth(end.getUTCMonth() + 6);
  const days: Date[] = [];
  for (let day = first.getTime(); day < end.getTime(); day += DAY) {
    const weekday = new Date(day).getUTCDay();
    if (weekday >= 1 && weekday <= 5) days.push(new Date(day));
  }
  return days;
}

/** Like `apportion`, but no part exceeds `cap`; the excess goes to the other parts. */
function apportionCapped(total: number, weights: number[], cap: number, what: string): number[] {
  if (total > cap * weights.length) {
    throw new Error(`${total} ${what} do not fit: at most ${cap} a day on ${weights.length} workdays`);
  }
  const parts = weights.map(() => 0);
  let open = weights.map((_, index) => index);
  let left = total;
  while (left > 0) {
    const shares = apportion(
      left,
      open.map((index) => weights[index]!),
    );
    left = 0;
    open.forEach((index, position) => {
      const wanted = parts[index]! + shares[position]!;
      parts[index] = Math.min(cap, wanted);
      left += wanted - parts[index]!;
    });
    open = open.filter((index) => parts[index]! < cap);
  }
  return parts;
}

/**
 * Reservations of the workdays around `now`, day by day. Nothing overlaps by construction:
 * each user holds at most one reservation a day, and a desk is either free, taken in the
 * morning, in the afternoon, or all day. FIXED desks in available rooms are assigned to an
 * owner who gets full-day 'fixed' reservations there on some days and never books elsewhere.
 * Desks in unavailable rooms are never booked.
 */
export function* reservationRows(world: World, total: number, seed: number, now: Date): Generator<CopyValue[]> {
  const random = new Random(seed, 'reservations');
  const days = workdays(now);
  const dayWeights = days.map((day) => WEEKDAY_WEIGHT[day.getUTCDay()]! * seasonalWeight(day));

  const bookable = world.desks.map((desk, index) => ({ desk, index })).filter(({ desk }) => world.rooms[desk.room]!.available);
  const flex = bookable.filter(({ desk }) => desk.type === 'FLEX').map(({ index }) => index);
  const fixed = bookable.filter(({ desk }) => desk.type === 'FIXED').map(({ index }) => index);
  const people = random.shuffle(world.users.map((_, index) => index));
  const owners = people.slice(0, fixed.length);
  const pool = people.slice(fixed.length);
  if (fixed.length > 0 && pool.length === 0) throw new Error('not enough users: every user owns a fixed desk');

  const fixedTotal = Math.min(Math.round(total * FIXED_RESERVATION_SHARE), fixed.length * days.length);
  const fixedPerDay = apportionCapped(fixedTotal, dayWeights, fixed.length, 'fixed reservations');
  const sharedPerDay = apportionCapped(total - fixedTotal, dayWeights, Math.min(pool.length, flex.length), 'reservations');

  // People mostly sit in their own department, often at the same desk.
  const departmentOf = (deskIndex: number) => world.rooms[world.desks[deskIndex]!.room]!.department;
  const flexByDepartment = new Map<number, number[]>();
  flex.forEach((deskIndex, position) => {
    const list = flexByDepartment.get(departmentOf(deskIndex)) ?? [];
    list.push(position);
    flexByDepartment.set(departmentOf(deskIndex), list);
  });
  const favourite = pool.map(() => random.int(0, flex.length - 1));

  const taken = new Uint8Array(flex.length);
  const fixedOrder = fixed.map((_, position) => position);
  const poolOrder = pool.map((_, position) => position);
  const nowMs = now.getTime();

  const createdBefore = (start: number): Date => {
    const roll = random.next();
    // Same-day decisions, the usual booking a few days ahead, and the planners.
    const lead =
      roll < 0.3 ? (0.2 + random.next() * 23.8) * HOUR : roll < 0.85 ? -Math.log(1 - random.next()) * 4 * DAY + HOUR : (7 + random.next() * 53) * DAY;
    const created = start - lead;
    // A booking for the future was made in the past: those that would lie ahead were made during the last 90 days.
    return atSecond(created <= nowMs ? created : nowMs - random.next() * 90 * DAY);
  };
  const row = (userIndex: number, deskIndex: number, day: number, slot: Slot, type: 'shared' | 'fixed'): CopyValue[] => {
    const start = day + slot.from * HOUR;
    const created = createdBefore(start);
    return [
      random.uuid(),
      world.users[userIndex]!.id,
      world.desks[deskIndex]!.id,
      new Date(start),
      new Date(day + slot.to * HOUR),
      type,
      true,
      created,
      created,
    ];
  };
  const fits = (position: number, mask: number) => (taken[position]! & mask) === 0;

  for (const [dayIndex, date] of days.entries()) {
    const day = date.getTime();
    taken.fill(0);
    for (let n = 0; n < fixedPerDay[dayIndex]!; n++) {
      const swap = n + random.int(0, fixedOrder.length - 1 - n);
      [fixedOrder[n], fixedOrder[swap]] = [fixedOrder[swap]!, fixedOrder[n]!];
      const position = fixedOrder[n]!;
      yield row(owners[position]!, fixed[position]!, day, SLOTS.fullDay, 'fixed');
    }
    for (let n = 0; n < sharedPerDay[dayIndex]!; n++) {
      const swap = n + random.int(0, poolOrder.length - 1 - n);
      [poolOrder[n], poolOrder[swap]] = [poolOrder[swap]!, poolOrder[n]!];
      const person = poolOrder[n]!;
      const slot = random.weighted(SLOT_CHOICE);
      let position = favourite[person]!;
      if (!fits(position, slot.mask)) {
        const nearby = flexByDepartment.get(departmentOf(flex[position]!))!;
        for (let attempt = 0; attempt < 8 && !fits(position, slot.mask); attempt++) position = random.pick(nearby);
      }
      // A day has fewer bookings than flex desks (the per-day cap), so some desk is still wholly free and this ends.
      for (let start = random.int(0, flex.length - 1), step = 0; !fits(position, slot.mask); step++) position = (start + step) % flex.length;
      taken[position]! |= slot.mask;
      yield row(pool[person]!, flex[position]!, day, slot, 'shared');
    }
  }
}

/**
 * Defect reports filed over the year before `now` by seeded users. Each names a consistent
 * chain: equipment with its desk, room and department; or a desk with its room and department;
 * or a room with its department; or a department alone.
 */
export function* reportRows(world: World, total: number, seed: number, now: Date): Generator<CopyValue[]> {
  const random = new Random(seed, 'reports');
  const kinds = [
    ['equipment', world.equipment.length > 0 ? 50 : 0],
    ['desk', 25],
    ['room', 17],
    ['department', 8],
  ] as const;
  const describe = (defect: Defect) => {
    const detail = random.pick(defect.details);
    return random.chance(0.6) ? `${detail} ${random.pick(DEFECT_FOLLOW_UPS)}` : detail;
  };
  for (let n = 0; n < total; n++) {
    const kind = random.weighted(kinds);
    let equipment: EquipmentItem | undefined;
    let desk: Desk | undefined;
    let room: Room | undefined;
    let defect: Defect;
    if (kind === 'equipment') {
      equipment = random.pick(world.equipment);
      desk = world.desks[equipment.desk]!;
      defect = random.pick(EQUIPMENT_DEFECTS[equipment.type]);
    } else if (kind === 'desk') {
      desk = random.pick(world.desks);
      defect = random.pick(DESK_DEFECTS);
    } else {
      defect = random.pick(kind === 'room' ? ROOM_DEFECTS : DEPARTMENT_DEFECTS);
    }
    if (desk) room = world.rooms[desk.room]!;
    else if (kind === 'room') room = random.pick(world.rooms);
    const department = room ? world.departments[room.department]! : random.pick(world.departments);
    const reporter = random.pick(world.users);
    const created = atSecond(now.getTime() - random.next() * 365 * DAY);
    yield [random.uuid(), defect.title, describe(defect), reporter.id, department.id, room?.id ?? null, desk?.id ?? null, equipment?.id ?? null, created];
  }
}
