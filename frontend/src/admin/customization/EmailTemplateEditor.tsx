import { useEffect, useRef, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { EmailTemplateResource } from '@branchify/shared';
import { errorMessage } from '../../shared/api';
import { FormTextArea, FormTextInput } from '../../shared/form';
import { useDebounced } from '../../shared/useDebounced';
import type { CustomizationForm } from './CustomizationPage';
import { useEmailPreview } from './queries';
import { TEMPLATE_LABELS } from './templates';

/** How long the editor waits after the last keystroke before rendering the preview again. */
const PREVIEW_DEBOUNCE_MS = 400;

type Part = 'subject' | 'body';

/** The rendered mail, as the server renders it for sending (sample values in the placeholders). */
const MailPreview = ({ template, subject, body, appName }: { template: string; subject: string; body: string; appName: string }) => {
  // Debounced as one string: an object would be new on every render.
  const settled = useDebounced(JSON.stringify([template, subject, body, appName]), PREVIEW_DEBOUNCE_MS);
  const [t, s, b, a] = JSON.parse(settled) as [string, string, string, string];
  const preview = useEmailPreview(t, s, b, a);
  return (
    <Box data-testid="mail-preview">
      <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
        Preview
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        Rendered as it is sent, with sample values (Jane Doe, jane.doe@example.com).
      </Typography>
      <Box sx={{ height: 4 }}>{preview.isFetching && <LinearProgress aria-label="Rendering the preview" />}</Box>
      {preview.isError && (
        <Alert severity="error" sx={{ my: 1 }}>
          {errorMessage(preview.error)}
        </Alert>
      )}
      {preview.data && (
        <Box sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 1, overflow: 'hidden', opacity: preview.isError ? 0.5 : 1 }}>
          <Box sx={{ px: 2, py: 1, bgcolor: 'action.hover', borderBottom: '1px solid', borderColor: 'divider' }}>
            <Typography variant="body2">
              <strong>Subject:</strong> <span data-testid="mail-preview-subject">{preview.data.subject}</span>
            </Typography>
          </Box>
          {/* Sandboxed without scripts: the admin's HTML is shown, never run (same origin only so it paints off-screen too). */}
          <iframe
            title="Email preview"
            sandbox="allow-same-origin"
            srcDoc={`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Email preview</title><base target="_blank"></head><body style="font-family: sans-serif; font-size: 14px; color: #1f1f1f; margin: 16px">${preview.data.html}</body></html>`}
            style={{ width: '100%', height: 300, border: 0, display: 'block', background: '#fff' }}
          />
        </Box>
      )}
    </Box>
  );
};

/** One tab per template, its label saying "(error)" when the last save found one in it. */
const TemplateTabs = ({ selected, invalid, onSelect }: { selected: string; invalid: string[]; onSelect: (key: string) => void }) => (
  <Tabs
    value={selected}
    onChange={(_e, value: string) => onSelect(value)}
    variant="scrollable"
    scrollButtons="auto"
    aria-label="Email templates"
    sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
  >
    {TEMPLATE_LABELS.map(([key, label]) => (
      <Tab
        key={key}
        value={key}
        label={invalid.includes(key) ? `${label} (error)` : label}
        id={`template-tab-${key}`}
        aria-controls="template-panel"
        sx={invalid.includes(key) ? { color: 'error.main' } : undefined}
      />
    ))}
  </Tabs>
);

/** What the template is for and the placeholders its body must keep. */
const TemplateIntro = ({ template }: { template: EmailTemplateResource }) => {
  const required = template.variables.filter((v) => v.required).map((v) => v.placeholder);
  return (
    <>
      <Typography variant="body2" color="text.secondary">
        {template.description}
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="template-required">
        {required.length ? `Required in the body: ${required.join(', ')}.` : 'No variable is required in this template.'}
      </Typography>
    </>
  );
};

/** "Restore default" and what it did, or that the template already is the default. */
const RestoreDefault = ({ onRestore, isDefault, restored }: { onRestore: () => void; isDefault: boolean; restored: boolean }) => (
  <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1 }}>
    <Button variant="outlined" size="small" onClick={onRestore} disabled={isDefault}>
      Restore default
    </Button>
    <Typography variant="body2" color="text.secondary" role="status">
      {restored ? 'The default subject and body are back in the form. Save to keep them.' : isDefault ? 'This template is the default.' : ''}
    </Typography>
  </Box>
);

/** The template's placeholders: a click inserts one (the mouse-down keeps the field's cursor). */
const VariableList = ({ variables, insert }: { variables: EmailTemplateResource['variables']; insert: (placeholder: string) => void }) => (
  <>
    <Typography variant="subtitle2" component="h4" sx={{ mt: 2 }}>
      Variables
    </Typography>
    <Typography variant="caption" color="text.secondary" component="p">
      Click one to insert it where the cursor is in the subject or body.
    </Typography>
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }} data-testid="template-variables">
      {variables.map((v) => (
        <Box component="li" key={v.placeholder} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.25 }}>
          <Button
            size="small"
            variant="outlined"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => insert(v.placeholder)}
            sx={{ fontFamily: 'monospace', textTransform: 'none', minWidth: 0 }}
          >
            {v.placeholder}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {v.description}
          </Typography>
          {v.required && (
            <Typography variant="caption" sx={{ fontWeight: 600, color: 'error.dark' }}>
              Required
            </Typography>
          )}
        </Box>
      ))}
    </Box>
  </>
);

/**
 * The six mail templates: subject and body (HTML) of the selected one, its placeholders (a click
 * inserts one where the cursor was), and the rendered mail beside them.
 */
export const EmailTemplateEditor = ({ form, templates }: { form: UseFormReturn<CustomizationForm>; templates: Record<string, EmailTemplateResource> }) => {
  const [selected, setSelected] = useState(TEMPLATE_LABELS[0][0]);
  const { submitCount, errors } = form.formState;
  const invalid = Object.keys((errors.app_email_templates as Record<string, unknown> | undefined) ?? {});
  // After a refused save (not while typing), show the template that holds the error.
  const firstInvalid = invalid.includes(selected) ? null : (invalid[0] ?? null);
  const [seenSubmit, setSeenSubmit] = useState(0);
  useEffect(() => {
    if (submitCount === seenSubmit) return;
    setSeenSubmit(submitCount);
    if (firstInvalid) setSelected(firstInvalid);
  }, [submitCount, seenSubmit, firstInvalid]);
  const template = templates[selected];
  const subjectName = `app_email_templates.${selected}.subject` as const;
  const bodyName = `app_email_templates.${selected}.body` as const;
  const subject = (useWatch({ control: form.control, name: subjectName }) as string | undefined) ?? '';
  const body = (useWatch({ control: form.control, name: bodyName }) as string | undefined) ?? '';
  const appName = useWatch({ control: form.control, name: 'app_name' }) ?? '';
  // Where a clicked placeholder goes: the field last focused, at its cursor (the body by default).
  const target = useRef<{ part: Part; element: HTMLInputElement | HTMLTextAreaElement } | null>(null);
  const remember = (part: Part) => (event: React.FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    target.current = { part, element: event.target };
  };

  // What "Restore default" last did, said until the template or its text changes again.
  const [restored, setRestored] = useState<string | null>(null);
  const isDefault = !!template && subject === template.default_subject && body === template.default_body;
  useEffect(() => {
    if (restored && !isDefault) setRestored(null);
  }, [restored, isDefault]);
  const restoreDefault = () => {
    if (!template) return;
    const options = { shouldDirty: true, shouldValidate: form.formState.isSubmitted };
    form.setValue(subjectName, template.default_subject, options);
    form.setValue(bodyName, template.default_body, options);
    setRestored(selected);
  };

  const insert = (placeholder: string) => {
    const part = target.current?.part ?? 'body';
    const name = part === 'subject' ? subjectName : bodyName;
    const current = part === 'subject' ? subject : body;
    const element = target.current?.element;
    const start = element?.selectionStart ?? current.length;
    const end = element?.selectionEnd ?? current.length;
    form.setValue(name, `${current.slice(0, start)}${placeholder}${current.slice(end)}`, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    if (element) {
      const caret = start + placeholder.length;
      requestAnimationFrame(() => {
        element.focus();
        element.setSelectionRange(caret, caret);
      });
    }
  };

  return (
    <Box>
      <TemplateTabs
        selected={selected}
        invalid={invalid}
        onSelect={(value) => {
          setSelected(value);
          setRestored(null);
          target.current = null;
        }}
      />
      {template && (
        <Grid container spacing={3} role="tabpanel" id="template-panel" aria-labelledby={`template-tab-${selected}`}>
          <Grid size={{ xs: 12, lg: 6 }}>
            <TemplateIntro template={template} />
            <FormTextInput key={subjectName} control={form.control} name={subjectName} label="Subject" onFocus={remember('subject')} />
            <FormTextArea key={bodyName} control={form.control} name={bodyName} label="Body (HTML)" rows={12} onFocus={remember('body')} />
            <RestoreDefault onRestore={restoreDefault} isDefault={isDefault} restored={restored === selected} />
            <VariableList variables={template.variables} insert={insert} />
          </Grid>
          <Grid size={{ xs: 12, lg: 6 }}>
            <MailPreview template={selected} subject={subject} body={body} appName={appName} />
          </Grid>
        </Grid>
      )}
    </Box>
  );
};
