import SellIcon from '@mui/icons-material/Sell';
import { PlanCreate } from './PlanCreate';
import { PlanEdit } from './PlanEdit';
import { PlanList } from './PlanList';

export default {
  list: PlanList,
  create: PlanCreate,
  edit: PlanEdit,
  icon: SellIcon,
  recordRepresentation: (r: { name: string }) => r.name,
};
