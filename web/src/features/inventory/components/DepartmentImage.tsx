import { usePicture } from '../../../api/pictures.js';
import type { Department } from '../../../api/types.js';
import { ImageButtons, useImageUpload } from '../../../components/ImageUpload.js';
import { Alert } from '../../../components/ui.js';
import { useObjectUrl } from '../../../hooks.js';
import { imageHint } from '../../../lib/images.js';
import { departmentLabel } from '../../../lib/labels.js';
import '../styles.css';

const TEXTS = {
  uploaded: 'The picture has been updated.',
  removed: 'The picture has been removed.',
  uploadSubject: 'This office',
  removeSubject: 'The picture',
};

export function DepartmentImage({ department }: { department: Department }) {
  const of = { kind: 'department', departmentId: department.id } as const;
  const picture = usePicture(of);
  const url = useObjectUrl(picture.data);
  const editor = useImageUpload(of, TEXTS);
  const hint = imageHint(editor.limits);

  return (
    <section className="panel" aria-labelledby="picture-heading">
      <h2 id="picture-heading">Picture or floor plan</h2>
      {editor.message && <Alert kind={editor.message.kind}>{editor.message.text}</Alert>}
      {picture.error ? (
        <Alert kind="error">The picture could not be loaded.</Alert>
      ) : picture.data === undefined ? (
        <p className="muted">Loading the picture…</p>
      ) : picture.data ? (
        url && <img src={url} alt={`Picture of ${departmentLabel(department)}`} className="department-image" />
      ) : (
        <p className="muted">No picture yet.</p>
      )}
      <div className="form-actions form-actions-start">
        <ImageButtons image={editor} present={Boolean(picture.data)} replaceLabel="Replace the picture" />
      </div>
      {hint && <p className="field-hint">{hint}</p>}
    </section>
  );
}
