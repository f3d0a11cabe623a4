// ActionsEnableWorkflow: a disabled workflow makes runs again (the cases are shared with ActionsDisableWorkflow).
import { workflowSwitchTests } from '../../helpers/workflowSwitch.js';

workflowSwitchTests('ActionsEnableWorkflow');
