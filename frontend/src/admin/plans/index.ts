import SellIcon from '@mui/icons-material/Sell';
import { lazyScreen } from '../lazy-screen';

// Each screen is its own chunk, loaded when first shown.
const PlanCreate = lazyScreen(() => import('./PlanCreate').then((m) => m.PlanCreate));
const PlanEdit = lazyScreen(() => import('./PlanEdit').then((m) => m.PlanEdit));
const PlanList = lazyScreen(() => import('./PlanList').then((m) => m.PlanList));

export default {
  list: PlanList,
  create: PlanCreate,
  edit: PlanEdit,
  icon: SellIcon,
  recordRepresentation: (r: { name: string }) => r.name,
};
