import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
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
function deleteOf(item: InventoryItem, t: TFunction<'inventory'>): Texts {
  switch (item.kind) {
    case 'department': {
      const path = { departmentId: item.department.id };
      return {
        title: t('delete.department.title'),
        question: t('delete.department.question', { office: departmentLabel(item.department) }),
        subject: t('department.subject'),
        forceNote: t('delete.department.forceNote'),
        remove: (force) => deleteDepartment(path, force),
      };
    }
    case 'room': {
      const path = { departmentId: item.room.departmentId, roomId: item.room.id };
      return {
        title: t('delete.room.title'),
        question: t('delete.room.question', { name: item.room.name }),
        subject: t('room.subject'),
        forceNote: t('delete.room.forceNote'),
        remove: (force) => deleteRoom(path, force),
      };
    }
    case 'desk': {
      const path = { departmentId: item.desk.departmentId, roomId: item.desk.roomId, deskId: item.desk.id };
      return {
        title: t('delete.desk.title'),
        question: t('delete.desk.question', { desk: deskTitle(item.desk.name) }),
        subject: t('desk.subject'),
        forceNote: t('delete.desk.forceNote'),
        remove: (force) => deleteDesk(path, force),
      };
    }
    case 'equipment': {
      const path = { departmentId: item.desk.departmentId, roomId: item.desk.roomId, deskId: item.desk.id, equipmentId: item.equipment.id };
      return {
        title: t('delete.equipment.title'),
        question: t('delete.equipment.question', { name: item.equipment.name, desk: deskPhrase(item.desk.name) }),
        subject: t('equipment.subject'),
        remove: () => deleteEquipment(path),
      };
    }
  }
}

/** Confirms the delete of a department, room, desk or piece of equipment. */
export function DeleteInventoryDialog({ item, onDeleted, onClose }: { item: InventoryItem; onDeleted: () => void; onClose: () => void }) {
  const { t } = useTranslation('inventory');
  return <DeleteDialog {...deleteOf(item, t)} invalidates={STALE_AFTER.inventoryTree} onDeleted={onDeleted} onClose={onClose} />;
}
