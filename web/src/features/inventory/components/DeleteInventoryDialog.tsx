import { STALE_AFTER } from '../../../api/query.js';
import type { Department, Desk, Equipment, Room } from '../../../api/types.js';
import { DeleteDialog, type DeleteDialogProps } from '../../../components/DeleteDialog.js';
import { departmentLabel, deskPhrase, deskTitle } from '../../../lib/labels.js';
import { deleteDepartment, deleteDesk, deleteEquipment, deleteRoom } from '../queries.js';

/** What is being deleted. */
export type InventoryItem =
  | { kind: 'department'; department: Department }
  | { kind: 'room'; room: Room }
  | { kind: 'desk'; desk: Desk }
  | { kind: 'equipment'; desk: Desk; equipment: Equipment };

type Texts = Pick<DeleteDialogProps, 'title' | 'question' | 'subject' | 'forceNote' | 'remove'>;

/** The words and the request of each kind of delete. */
function deleteOf(item: InventoryItem): Texts {
  switch (item.kind) {
    case 'department': {
      const path = { departmentId: item.department.id };
      return {
        title: 'Delete this office?',
        question: `${departmentLabel(item.department)} will be deleted.`,
        subject: 'This office',
        forceNote:
          'Deleting everything removes its rooms, their desks and equipment, its picture and every reservation of those desks. Defect reports stay, without the place.',
        remove: (force) => deleteDepartment(path, force),
      };
    }
    case 'room': {
      const path = { departmentId: item.room.departmentId, roomId: item.room.id };
      return {
        title: 'Delete this room?',
        question: `Room ${item.room.name} will be deleted.`,
        subject: 'This room',
        forceNote: 'Deleting everything removes its desks, their equipment and every reservation of those desks.',
        remove: (force) => deleteRoom(path, force),
      };
    }
    case 'desk': {
      const path = { departmentId: item.desk.departmentId, roomId: item.desk.roomId, deskId: item.desk.id };
      return {
        title: 'Delete this desk?',
        question: `${deskTitle(item.desk.name)} will be deleted.`,
        subject: 'This desk',
        forceNote: 'Deleting everything removes its equipment and every reservation of the desk, including future ones.',
        remove: (force) => deleteDesk(path, force),
      };
    }
    case 'equipment': {
      const path = { departmentId: item.desk.departmentId, roomId: item.desk.roomId, deskId: item.desk.id, equipmentId: item.equipment.id };
      return {
        title: 'Delete this equipment?',
        question: `${item.equipment.name} will be removed from ${deskPhrase(item.desk.name)}.`,
        subject: 'This equipment',
        remove: () => deleteEquipment(path),
      };
    }
  }
}

/** Confirms the delete of a department, room, desk or piece of equipment. */
export function DeleteInventoryDialog({ item, onDeleted, onClose }: { item: InventoryItem; onDeleted: () => void; onClose: () => void }) {
  return <DeleteDialog {...deleteOf(item)} invalidates={STALE_AFTER.inventoryTree} onDeleted={onDeleted} onClose={onClose} />;
}
