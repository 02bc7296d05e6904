import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { Link as RouterLink } from 'react-router-dom';
import { useCreatePath, useResourceContext } from 'react-admin';

/**
 * An empty list's way to create the first record: a button in its place at every width (react-admin's
 * create button floats over the page's corner on a narrow screen, over the empty page's text).
 */
export const EmptyCreateButton = ({ label }: { label: string }) => {
  const resource = useResourceContext();
  const createPath = useCreatePath();
  if (!resource) return null;
  return (
    <Button component={RouterLink} to={createPath({ resource, type: 'create' })} variant="contained" startIcon={<AddIcon />}>
      {label}
    </Button>
  );
};
