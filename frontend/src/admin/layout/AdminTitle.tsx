import { Title } from 'react-admin';
import { useCustomization } from '../../shared/customization';
import { usePageTitle } from '../../shared/usePageTitle';

/** The browser tab's title of an admin screen: the screen, then the app's name as the branding has it. */
export const useAdminPageTitle = (title: string): void => {
  const { customization } = useCustomization();
  usePageTitle(title, customization.app_name);
};

/** An admin screen's title, in the app bar and the browser tab. */
export const AdminTitle = ({ title }: { title: string }) => {
  useAdminPageTitle(title);
  return <Title title={title} />;
};
