import type { CreateDepartmentBody, CreateEquipmentBody } from './inventory.schemas.js';

/**
 * The sample office an admin may load into an empty install (docs/behaviour.md#an-empty-install):
 * one office with two rooms, flexible desks with equipment and one fixed desk. No people and no
 * reservations: those are the install's own.
 */

interface SampleDesk {
  name: string;
  type: 'FLEX' | 'FIXED';
  equipment: CreateEquipmentBody[];
}

const monitor: CreateEquipmentBody = { name: 'Monitor 27"', description: 'Sample equipment', type: 'MONITOR' };
const dock: CreateEquipmentBody = { name: 'USB-C dock', description: 'Sample equipment', type: 'DOCKING_STATION' };
const headset: CreateEquipmentBody = { name: 'Headset', description: 'Sample equipment', type: 'HEADSET' };

export const SAMPLE_DEPARTMENT: CreateDepartmentBody = { location: 'Sample office', building: 'Main building', floor: 1 };

export const SAMPLE_ROOMS: { name: string; desks: SampleDesk[] }[] = [
  {
    name: 'Open space',
    desks: [
      ...['OS-1', 'OS-2', 'OS-3', 'OS-4', 'OS-5'].map((name) => ({ name, type: 'FLEX' as const, equipment: [monitor, dock] })),
      { name: 'OS-6', type: 'FIXED', equipment: [monitor, dock] },
    ],
  },
  {
    name: 'Quiet room',
    desks: ['Q-1', 'Q-2', 'Q-3'].map((name) => ({ name, type: 'FLEX' as const, equipment: [monitor, headset] })),
  },
];
