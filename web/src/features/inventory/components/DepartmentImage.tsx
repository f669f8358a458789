import { useQuery } from '@tanstack/react-query';
import { api, asIs, call, fileBody } from '../../../api/client.js';
import { STALE_AFTER } from '../../../api/query.js';
import type { Department } from '../../../api/types.js';
import { ImageButtons, useImageUpload } from '../../../components/ImageUpload.js';
import { Alert } from '../../../components/ui.js';
import { useObjectUrl } from '../../../hooks.js';
import { imageHint } from '../../../lib/images.js';
import { problemOf } from '../../../lib/problems.js';
import { departmentLabel } from '../labels.js';

type Path = { departmentId: string };

// 404 means "no picture yet" (null).
const readPicture = (path: Path) =>
  call(api.GET('/api/departments/{departmentId}/image', { params: { path }, parseAs: 'blob' })).then(
    (blob) => blob as Blob,
    (error: unknown) => (problemOf(error).status === 404 ? null : Promise.reject(error)),
  );

export function DepartmentImage({ department }: { department: Department }) {
  const path = { departmentId: department.id };
  // Keyed like $api's queries, so that inventory changes make it stale too.
  const picture = useQuery({ queryKey: ['get', '/api/departments/{departmentId}/image', { params: { path } }], queryFn: () => readPicture(path) });
  const url = useObjectUrl(picture.data);
  const editor = useImageUpload({
    // The image routes take a multipart body, which the OpenAPI document does not describe.
    upload: (file) => call(api.PUT('/api/departments/{departmentId}/image', { params: { path }, body: fileBody(file) as never, bodySerializer: asIs })),
    remove: () => call(api.DELETE('/api/departments/{departmentId}/image', { params: { path } })),
    invalidates: STALE_AFTER.inventory,
    uploaded: 'The picture has been updated.',
    removed: 'The picture has been removed.',
    uploadSubject: 'This office',
    removeSubject: 'The picture',
  });
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
