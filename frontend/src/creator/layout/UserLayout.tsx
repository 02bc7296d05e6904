import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import VideoLibraryIcon from '@mui/icons-material/VideoLibrary';
import SettingsIcon from '@mui/icons-material/Settings';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlined';
import { useCustomization, sidebarWidth } from '../../shared/customization';
import { MailerBanner } from '../../shared/MailerBanner';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import { useNarrow } from '../../shared/useNarrow';
import { initials } from '../../shared/format';

/**
 * The profile preview of both sidebars: initials, full name, email, and a Logout menu. At the
 * sidebar's foot on a wide screen; at the top of a phone's drawer (`atTop`), clear of the toasts
 * along the bottom of the screen, its menu opening downwards.
 */
const ProfileBlock = ({ atTop = false }: { atTop?: boolean }) => {
  const session = useSession();
  const { user } = session;
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!user) return null;
  const logOut = async () => {
    setAnchor(null);
    await session.signOut();
    navigate(ROUTES.UserLogin, { replace: true });
  };
  return (
    <>
      <ButtonBase
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="menu"
        data-testid="profile-block"
        sx={{
          display: 'flex',
          gap: 1.5,
          alignItems: 'center',
          p: 2,
          width: '100%',
          justifyContent: 'flex-start',
          textAlign: 'left',
          ...(atTop ? { borderBottom: 1 } : { borderTop: 1 }),
          borderColor: 'divider',
        }}
      >
        <Avatar sx={{ bgcolor: 'primary.main' }}>{initials(user.first_name, user.last_name)}</Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap>
            {user.first_name} {user.last_name}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {user.email}
          </Typography>
        </Box>
      </ButtonBase>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: atTop ? 'bottom' : 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: atTop ? 'top' : 'bottom', horizontal: 'left' }}
      >
        <MenuItem onClick={() => void logOut()}>Logout</MenuItem>
      </Menu>
    </>
  );
};

interface NavItem {
  label: string;
  to: string;
  icon: JSX.Element;
  external?: boolean;
}

/** The app's logo, or its name where no logo is set. */
const Brand = () => {
  const { customization } = useCustomization();
  return customization.app_logo_url ? (
    <img src={customization.app_logo_url} alt={customization.app_name} style={{ maxHeight: 40, maxWidth: '100%' }} />
  ) : (
    <Typography variant="h6" color="primary" component="p" style={{ fontWeight: 700 }} noWrap>
      {customization.app_name}
    </Typography>
  );
};

/** The id of the sidebar's drawer, which the phone's menu button controls. */
const SIDEBAR_ID = 'app-sidebar';

/**
 * A sidebar of the given width with the app's logo, the items and the profile block: always shown
 * on a wide screen; on a narrow one a drawer over the page (`temporary`) that choosing a page,
 * Escape or a click beside it closes.
 */
const Sidebar = ({ items, narrow = false, open = false, onClose }: { items: NavItem[]; narrow?: boolean; open?: boolean; onClose?: () => void }) => {
  const { customization } = useCustomization();
  const width = sidebarWidth(customization);
  return (
    <Drawer
      variant={narrow ? 'temporary' : 'permanent'}
      open={narrow ? open : true}
      onClose={onClose}
      // Mounted while closed, so the menu button's aria-controls names an element.
      ModalProps={{ keepMounted: true }}
      slotProps={{ paper: { id: SIDEBAR_ID } }}
      sx={{
        width: narrow ? undefined : width,
        flexShrink: 0,
        '& .MuiDrawer-paper': { width, maxWidth: '85vw', boxSizing: 'border-box', display: 'flex', flexDirection: 'column' },
      }}
    >
      <Box sx={{ p: 2.5 }}>
        <Brand />
      </Box>
      {narrow && <ProfileBlock atTop />}
      <Box component="nav" aria-label="Main" sx={{ flex: 1 }}>
        <List>
          {items.map((item) => (
            <ListItem key={item.label} disablePadding>
              {item.external ? (
                <ListItemButton component="a" href={item.to} target="_blank" rel="noopener noreferrer" onClick={onClose}>
                  <ListItemIcon>{item.icon}</ListItemIcon>
                  <ListItemText primary={item.label} />
                </ListItemButton>
              ) : (
                <ListItemButton
                  component={NavLink}
                  to={item.to}
                  onClick={onClose}
                  sx={{ '&.active': { bgcolor: 'action.selected', color: 'primary.main', '& .MuiListItemIcon-root': { color: 'primary.main' } } }}
                >
                  <ListItemIcon>{item.icon}</ListItemIcon>
                  <ListItemText primary={item.label} />
                </ListItemButton>
              )}
            </ListItem>
          ))}
        </List>
      </Box>
      {!narrow && <ProfileBlock />}
    </Drawer>
  );
};

/** On a narrow screen: a bar with the menu button that opens the sidebar, and the app's logo. */
const NarrowBar = ({ open, onOpen }: { open: boolean; onOpen: () => void }) => (
  <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
    <Toolbar sx={{ gap: 1 }}>
      <IconButton edge="start" aria-label="Open menu" aria-expanded={open} aria-controls={SIDEBAR_ID} onClick={onOpen}>
        <MenuIcon />
      </IconButton>
      <Box sx={{ minWidth: 0 }}>
        <Brand />
      </Box>
    </Toolbar>
  </AppBar>
);

/** The user area's root layout: named views sidebar + main. */
export const UserLayout = () => {
  const { customization } = useCustomization();
  const { user } = useSession();
  const narrow = useNarrow();
  const [menuOpen, setMenuOpen] = useState(false);
  const items: NavItem[] = [
    { label: 'Funnels', to: ROUTES.FunnelsDashboard, icon: <AccountTreeIcon /> },
    { label: 'Library', to: ROUTES.Library, icon: <VideoLibraryIcon /> },
    { label: 'Settings', to: ROUTES.UserSettings, icon: <SettingsIcon /> },
  ];
  // Help opens the support URL of the app customization (hidden until an admin sets one).
  if (customization.app_support_url) items.push({ label: 'Help', to: customization.app_support_url, icon: <HelpOutlineIcon />, external: true });
  // An admin also builds funnels here: the way back to the admin panel.
  if (user?.is_admin) items.push({ label: 'Admin panel', to: ROUTES.UsersList, icon: <AdminPanelSettingsIcon /> });
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <Sidebar items={items} narrow={narrow} open={menuOpen} onClose={() => setMenuOpen(false)} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {narrow ? <NarrowBar open={menuOpen} onOpen={() => setMenuOpen(true)} /> : null}
        <Box component="main" sx={{ flex: 1, minWidth: 0, p: { xs: 2, md: 4 } }}>
          <MailerBanner />
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
};

/** A page header: title (h1) and actions; a long title wraps, and the actions go below it when there is no room. */
export const PageHeader = ({ title, children }: { title: string; children?: React.ReactNode }) => (
  <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2, mb: 3 }}>
    <Typography
      variant="h4"
      component="h1"
      style={{ fontWeight: 700 }}
      sx={(theme) => ({ minWidth: 0, maxWidth: '100%', overflowWrap: 'anywhere', [theme.breakpoints.down('sm')]: { fontSize: '1.625rem' } })}
    >
      {title}
    </Typography>
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>{children}</Box>
  </Box>
);
