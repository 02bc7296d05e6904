import { Menu } from 'react-admin';
import PaletteIcon from '@mui/icons-material/Palette';
import HubIcon from '@mui/icons-material/Hub';
import SystemUpdateAltIcon from '@mui/icons-material/SystemUpdateAlt';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlined';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import { ROUTES } from '../../shared/routes';

/**
 * The admin sidebar: Users, Plans, App Customizations, Integrations, Webhooks, App update, Help,
 * and the way to the creator area (an admin builds funnels there too).
 */
export const AdminMenu = () => (
  <Menu>
    <Menu.ResourceItem name="users" />
    <Menu.ResourceItem name="plans" />
    <Menu.Item to="/admin/app-customization" primaryText="App Customizations" leftIcon={<PaletteIcon />} />
    <Menu.Item to="/admin/integrations" primaryText="Integrations" leftIcon={<HubIcon />} />
    <Menu.ResourceItem name="webhooks" />
    <Menu.Item to="/admin/updates" primaryText="App update" leftIcon={<SystemUpdateAltIcon />} />
    <Menu.Item to="/admin/help" primaryText="Help" leftIcon={<HelpOutlineIcon />} />
    <Menu.Item to={ROUTES.FunnelsDashboard} primaryText="Creator area" leftIcon={<AccountTreeIcon />} />
  </Menu>
);
