import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useAlert } from '../../../shared/alerts';
import { ImageUpload } from '../../../shared/inputs/ImageUpload';
import { BRANCH_IMAGE_MAX_KB, uploadImage } from '../uploads';
import { BRANCH_IMAGE_TOO_LARGE } from './messages';

/** An uploaded image (≤ 2000 KB, png/jpg/jpeg/webp/svg): shows it, replaces it, removes it. */
export const ImageField = ({ label, value, onChange }: { label: string; value: string | null; onChange: (url: string | null) => void }) => {
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  return (
    <Box>
      <ImageUpload
        label={label}
        preview={value}
        maxKb={BRANCH_IMAGE_MAX_KB}
        tooLargeMessage={BRANCH_IMAGE_TOO_LARGE}
        busy={busy}
        onFile={(file) => {
          setBusy(true);
          uploadImage(file)
            .then(onChange, (error: unknown) => alert.error(error))
            .finally(() => setBusy(false));
        }}
      />
      {value && (
        <Button size="small" color="inherit" onClick={() => onChange(null)}>
          Remove image
        </Button>
      )}
    </Box>
  );
};
