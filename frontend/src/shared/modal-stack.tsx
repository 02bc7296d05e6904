import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';
import { MODAL_Z_INDEX, type OpenModal } from './modals';
import { QueryScope } from './data/QueryScope';

/**
 * The open modals, bottom to top, each a Dialog with its title and close icon (lazy: see modals.tsx).
 * They render at the root, outside the pages' data layer, so they sit in one of their own.
 */
const ModalStack = ({ stack, closeOne }: { stack: OpenModal[]; closeOne: (id: number) => void }) => (
  <QueryScope>
    {stack.map((m, index) => {
      const titleId = `modal-title-${m.id}`;
      return (
        <Dialog
          key={m.id}
          open
          onClose={() => closeOne(m.id)}
          maxWidth={m.maxWidth}
          fullWidth
          aria-labelledby={titleId}
          data-modal={m.name}
          sx={{ zIndex: MODAL_Z_INDEX + index }}
        >
          <DialogTitle id={titleId} sx={{ pr: 6 }}>
            {m.title}
          </DialogTitle>
          <IconButton aria-label="Close dialog" onClick={() => closeOne(m.id)} sx={{ position: 'absolute', right: 8, top: 8 }}>
            <CloseIcon />
          </IconButton>
          {m.render({ close: () => closeOne(m.id) })}
        </Dialog>
      );
    })}
  </QueryScope>
);

export default ModalStack;
