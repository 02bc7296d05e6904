import { useQuery } from '@tanstack/react-query';
import type { AdminCustomizationResource, EmailPreviewResource } from '@branchify/shared';
import { api } from '../../shared/api';

/**
 * The admin's view of the customization (with the mail templates). Its key starts with 'admin',
 * not 'customization': the public branding survives a logout, the admin view must not.
 */
export const customizationKeys = {
  admin: ['admin', 'customization'] as const,
  preview: (template: string, subject: string, body: string, appName: string) =>
    ['admin', 'customization', 'preview', template, subject, body, appName] as const,
};

export const useAdminCustomization = () =>
  useQuery({
    queryKey: customizationKeys.admin,
    queryFn: async () => (await api.get<AdminCustomizationResource>('admin/customizations')).data,
  });

/** The mail a template produces, rendered by the server's own renderer with sample values. */
export const useEmailPreview = (template: string, subject: string, body: string, appName: string) =>
  useQuery({
    queryKey: customizationKeys.preview(template, subject, body, appName),
    queryFn: async () =>
      (await api.post<EmailPreviewResource>('admin/customizations/email-preview', { template, subject, body, app_name: appName || null })).data,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    // The last rendering stays on screen while the next one is made.
    placeholderData: (previous) => previous,
  });
