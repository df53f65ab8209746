// Until the dashboard is built, the signed-in home stands in.
export { HomePage as DashboardPage } from '../home/HomePage';
