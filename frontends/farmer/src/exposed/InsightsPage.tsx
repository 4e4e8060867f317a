// /dashboard/insights (issue 12): the farmer's insights. The page lives in ../insights/.
import { InsightsPage } from '../insights/InsightsPage.js';

export default InsightsPage;
