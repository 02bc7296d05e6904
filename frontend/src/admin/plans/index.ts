import SellIcon from '@mui/icons-material/Sell';
import { PlanList } from './PlanList';

export default {
  list: PlanList,
  icon: SellIcon,
  recordRepresentation: (r: { name: string }) => r.name,
};
