import { useTranslation } from 'react-i18next';
import { usePicture } from '../../../api/pictures.js';
import type { Department } from '../../../api/types.js';
import { ImageButtons, useImageUpload } from '../../../components/ImageUpload.js';
import { Alert } from '../../../components/ui.js';
import { useObjectUrl } from '../../../hooks.js';
import { imageHint } from '../../../lib/images.js';
import { departmentLabel } from '../../../lib/labels.js';
import { useFloorPlan } from '../../floor-plans/queries.js';
import '../styles.css';

export function DepartmentImage({ department }: { department: Department }) {
  const { t } = useTranslation('inventory');
  const of = { kind: 'department', departmentId: department.id } as const;
  // The plan says whether there is a picture: an office without one is not asked for it (no 404 in the console).
  const plan = useFloorPlan(department.id);
  const hasImage = plan.data ? Boolean(plan.data.image) : undefined;
  const picture = usePicture(of, { enabled: hasImage === true });
  const url = useObjectUrl(picture.data);
  const editor = useImageUpload(of, {
    uploaded: t('picture.uploaded'),
    removed: t('picture.removed'),
    uploadSubject: t('department.subject'),
    removeSubject: t('picture.removeSubject'),
  });
  const hint = imageHint(editor.limits);

  return (
    <section className="panel" aria-labelledby="picture-heading">
      <h2 id="picture-heading">{t('picture.heading')}</h2>
      {editor.message && <Alert kind={editor.message.kind}>{editor.message.text}</Alert>}
      {picture.error || plan.error ? (
        <Alert kind="error">{t('picture.loadFailed')}</Alert>
      ) : hasImage === false ? (
        <p className="muted">{t('picture.none')}</p>
      ) : picture.data === undefined ? (
        <p className="muted">{t('picture.loading')}</p>
      ) : picture.data ? (
        url && <img src={url} alt={t('picture.alt', { office: departmentLabel(department) })} className="department-image" />
      ) : (
        <p className="muted">{t('picture.none')}</p>
      )}
      <div className="form-actions form-actions-start">
        <ImageButtons image={editor} present={hasImage === true && Boolean(picture.data)} replaceLabel={t('picture.replace')} />
      </div>
      {hint && <p className="field-hint">{hint}</p>}
    </section>
  );
}
