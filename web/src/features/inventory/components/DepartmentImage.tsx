import { usePicture } from '../../../api/pictures.js';
import type { Department } from '../../../api/types.js';
import { ImageButtons, useImageUpload } from '../../../components/ImageUpload.js';
import { Alert } from '../../../components/ui.js';
import { useObjectUrl } from '../../../hooks.js';
import { imageHint } from '../../../lib/images.js';
import { departmentLabel } from '../../../lib/labels.js';
import { useFloorPlan } from '../../floor-plans/queries.js';
import '../styles.css';

const TEXTS = {
  uploaded: 'The picture has been updated.',
  removed: 'The picture has been removed.',
  uploadSubject: 'This office',
  removeSubject: 'The picture',
};

export function DepartmentImage({ department }: { department: Department }) {
  const of = { kind: 'department', departmentId: department.id } as const;
  // The plan says whether there is a picture: an office without one is not asked for it (no 404 in the console).
  const plan = useFloorPlan(department.id);
  const hasImage = plan.data ? Boolean(plan.data.image) : undefined;
  const picture = usePicture(of, { enabled: hasImage === true });
  const url = useObjectUrl(picture.data);
  const editor = useImageUpload(of, TEXTS);
  const hint = imageHint(editor.limits);

  return (
    <section className="panel" aria-labelledby="picture-heading">
      <h2 id="picture-heading">Picture or floor plan</h2>
      {editor.message && <Alert kind={editor.message.kind}>{editor.message.text}</Alert>}
      {picture.error || plan.error ? (
        <Alert kind="error">The picture could not be loaded.</Alert>
      ) : hasImage === false ? (
        <p className="muted">No picture yet.</p>
      ) : picture.data === undefined ? (
        <p className="muted">Loading the picture…</p>
      ) : picture.data ? (
        url && <img src={url} alt={`Picture of ${departmentLabel(department)}`} className="department-image" />
      ) : (
        <p className="muted">No picture yet.</p>
      )}
      <div className="form-actions form-actions-start">
        <ImageButtons image={editor} present={hasImage === true && Boolean(picture.data)} replaceLabel="Replace the picture" />
      </div>
      {hint && <p className="field-hint">{hint}</p>}
    </section>
  );
}
