// ActionsDisableWorkflow: a disabled workflow makes no runs (the cases are shared with ActionsEnableWorkflow).
import { workflowSwitchTests } from '../../helpers/workflowSwitch.js';

workflowSwitchTests('ActionsDisableWorkflow');
