import { toUserSettings } from '../../../convert/user.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const updateUserSettings: Handler<'updateUserSettings'> = async (req) => {
  const b = req.body;
  const row = await req.services.users.updateSettings(actorOf(req), {
    fullName: b.full_name,
    website: b.website,
    description: b.description,
    location: b.location,
    language: b.language,
    theme: b.theme,
    diffViewStyle: b.diff_view_style,
    hideEmail: b.hide_email,
    hideActivity: b.hide_activity,
  });
  return { status: 200, body: toUserSettings(row) };
};
