import { useId } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { MESSAGES, messageTemplates } from '@branchify/shared';
import { useAlert } from '../alerts';

const EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp', 'svg'];

/**
 * Image upload with the spec's rules: .png .jpg .jpeg .webp .svg; the size limit is a parameter
 * (the limit the server applies to that image), and the refusal names it.
 */
export const ImageUpload = ({
  label,
  preview,
  maxKb,
  tooLargeMessage = messageTemplates.imageTooLarge(maxKb),
  busy = false,
  onFile,
}: {
  label: string;
  preview?: string | null;
  maxKb: number;
  /** The refusal for a file over `maxKb`. */
  tooLargeMessage?: string;
  /** An upload is under way: the button says so and waits. */
  busy?: boolean;
  onFile: (file: File) => void;
}) => {
  const id = useId();
  const alert = useAlert();
  return (
    <Box sx={{ my: 1 }}>
      <Typography variant="body2" component="label" htmlFor={id}>
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        {preview && <img src={preview} alt="" style={{ maxHeight: 48, maxWidth: 120 }} />}
        <Button component="label" variant="outlined" disabled={busy}>
          {busy ? 'Uploading...' : 'Choose image'}
          <input
            id={id}
            hidden
            type="file"
            accept={EXTENSIONS.map((e) => `.${e}`).join(',')}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
              if (!EXTENSIONS.includes(ext)) return alert.error(MESSAGES.invalidFileType);
              if (file.size > maxKb * 1024) return alert.error(tooLargeMessage);
              onFile(file);
            }}
          />
        </Button>
      </Box>
    </Box>
  );
};
