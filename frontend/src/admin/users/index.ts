import PeopleIcon from '@mui/icons-material/People';
import { UserList } from './UserList';

export default {
  list: UserList,
  icon: PeopleIcon,
  recordRepresentation: (r: { first_name: string; last_name: string }) => `${r.first_name} ${r.last_name}`,
};
