/** svcd must not start; the message is one line naming the rule (svcd prints it and exits 2). */
export class StartupRefusal extends Error {
  override name = 'StartupRefusal';
}
