// τ²-Bench telecom's user tools (tau2/domains/telecom/user_tools.py): the simulated user's phone.
// The user model calls them; the agent only hears what the user says. Ported call for call, the
// functions that break a phone for a scenario and the assertions included.
//
// One quirk is scoped: in τ² the VPN details a connect sets are one object shared by the class,
// and `break_vpn` degrades that object, so in one Python process a broken VPN stays broken for
// every later task. Here it is shared within one environment (one rollout), as a task alone sees
// it (docs/evaluation.md). Pure TypeScript.

import { construct } from '../model.ts';
import { assertionError, attributeError, typeError, valueError } from '../pyErrors.ts';
import { lower } from '../pyOps.ts';
import { formatFixed, isModel, pyEquals, pyFloat, pyRepr, pyRound, pyStr, pyTruthy, pyTypeName, strRepr, type PyModel, type PyValue } from '../pyValues.ts';
import { fn, Toolkit, type ToolFunction } from '../toolkit.ts';
import { APNSettings, defaultOf, NETWORK_MODE, NETWORK_STATUS } from './model.ts';

type Device = PyModel & {
  sim_card_status: string;
  sim_card_missing: boolean;
  airplane_mode: boolean;
  network_signal_strength: string;
  network_technology_connected: string;
  network_connection_status: string;
  battery_level: number;
  data_enabled: boolean;
  roaming_enabled: boolean;
  network_mode_preference: string;
  active_apn_settings: PyModel;
  wifi_enabled: boolean;
  wifi_connected: boolean;
  wifi_ssid: string | null;
  wifi_signal_strength: string;
  wifi_calling_enabled: boolean;
  wifi_calling_mms_over_wifi: boolean;
  data_saver_mode: boolean;
  vpn_enabled_setting: boolean;
  vpn_connected: boolean;
  vpn_details: PyModel | null;
  app_statuses: Map<string, PyValue>;
};
type Surroundings = PyModel & {
  name: PyValue;
  phone_number: PyValue;
  is_abroad: PyValue;
  roaming_allowed: boolean;
  signal_strength: Map<string, PyValue>;
  mobile_data_usage_exceeded: boolean;
  line_active: boolean;
  payment_request: (PyModel & { bill_id: string; amount_due: PyValue; paid: PyValue }) | null;
};
export type TelecomUserDb = PyModel & { device: Device; surroundings: Surroundings };

const SIGNAL_BAR: Record<string, string> = { none: '📵 No Signal', poor: '📶¹ Poor', fair: '📶² Fair', good: '📶³ Good', excellent: '📶⁴ Excellent' };
const TECH_SPEED: Record<string, [number, number]> = { '2G': [0.1, 0.4], '3G': [1.0, 5.0], '4G': [10.0, 100.0], '5G': [50.0, 500.0], none: [0.0, 0.0] };
const SIGNAL_FACTOR: Record<string, number> = { poor: 0.2, fair: 0.5, good: 0.8, excellent: 1.0, none: 0.0 };
const SIM_TEXT: Record<string, string> = {
  active: 'Your SIM card is active and working.',
  missing: 'No SIM card detected in the phone.',
  locked_pin: 'The SIM card is locked with a PIN code.',
  locked_puk: 'The SIM card is locked with a PUK code.',
};
const MODE_TECH: Record<string, string> = { '4g_only': '4G', '3g_only': '3G', '2g_only': '2G' };
/** An Enum member's repr, as a dict's repr prints it (check_vpn_status shows one). */
const PERFORMANCE_REPR = (value: string) => `<PerformanceLevel.${value.toUpperCase()}: '${value}'>`;

const onOff = (on: PyValue) => (pyTruthy(on) ? 'ON' : 'OFF');
const yesNo = (on: PyValue) => (pyTruthy(on) ? 'Yes' : 'No');

export class TelecomUserTools extends Toolkit<TelecomUserDb> {
  readonly className = 'TelecomUserTools';
  /** τ²'s class-level `default_vpn_details`: one object, degraded in place by break_vpn. */
  readonly defaultVpnDetails: PyModel = { server_address: '192.168.1.1', protocol: 'OpenVPN', server_performance: 'excellent' };

  get device(): Device {
    return this.db.device;
  }
  get surroundings(): Surroundings {
    return this.db.surroundings;
  }

  withStatusBar(text: string): string {
    return `${text}\nStatus Bar: ${this.statusBar()}`;
  }

  statusBar(): string {
    const d = this.device;
    const parts: string[] = [];
    if (d.airplane_mode) parts.push('✈️ Airplane Mode');
    else {
      parts.push(SIGNAL_BAR[d.network_signal_strength] ?? '📵 No Signal');
      if (d.network_technology_connected !== 'none') parts.push(d.network_technology_connected);
      if (d.data_enabled && d.network_technology_connected !== 'none') {
        parts.push('📱 Data Enabled');
        if (d.data_saver_mode) parts.push('🔽 Data Saver');
      } else parts.push('📵 Data Disabled');
    }
    if (d.wifi_enabled && d.wifi_connected) parts.push(d.wifi_ssid ? `📡 Connected to ${d.wifi_ssid}` : '📡 Enabled');
    if (d.vpn_connected) parts.push('🔒 VPN Connected');
    parts.push(`🔋 ${pyStr(d.battery_level)}%`);
    return parts.join(' | ');
  }

  simStatus(): string {
    return this.device.sim_card_missing ? 'missing' : this.device.sim_card_status;
  }

  mobileDataWorking(): boolean {
    const d = this.device;
    if (d.airplane_mode || d.network_signal_strength === 'none') return false;
    if (d.network_connection_status === 'no_service') return false;
    if (pyTruthy(this.surroundings.is_abroad) && (!d.roaming_enabled || !this.surroundings.roaming_allowed)) return false;
    if (!d.data_enabled) return false;
    if (this.surroundings.mobile_data_usage_exceeded) return false;
    return true;
  }

  /** `_run_speed_test`: (speed, description), speed null when there is no connection. */
  speedTest(): [number | null, string] {
    if (!this.mobileDataWorking()) return [null, 'No Connection'];
    const d = this.device;
    let factor = d.vpn_connected && d.vpn_details && d.vpn_details.server_performance === 'poor' ? 0.1 : 1.0;
    if (d.data_saver_mode) factor *= 0.2;
    const [min, max] = TECH_SPEED[d.network_technology_connected] ?? [0.0, 0.0];
    const signal = SIGNAL_FACTOR[d.network_signal_strength] ?? 0.0;
    const rounded = pyRound(pyFloat(((min + max) / 2.0) * signal * factor), 2);
    const speed = typeof rounded === 'number' ? rounded : rounded.value;
    const description = speed < 1 ? 'Very Poor' : speed < 5 ? 'Poor' : speed < 25 ? 'Fair' : speed < 100 ? 'Good' : 'Excellent';
    return [speed, description];
  }

  canSendMms(): boolean {
    const d = this.device;
    if (!this.mobileDataWorking()) return false;
    if (d.network_technology_connected === '2G') return false;
    if (d.wifi_calling_enabled && d.wifi_calling_mms_over_wifi) return false;
    if (d.active_apn_settings.mmsc_url === null) return false;
    const app = d.app_statuses.get('messaging') as PyModel | undefined;
    if (!app) return false;
    const permissions = app.permissions as PyModel;
    return Boolean(permissions.storage && permissions.sms);
  }

  simulateNetworkSearch(): void {
    const d = this.device;
    const signal = (tech: string) => (this.surroundings.signal_strength.get(tech) as string | undefined) ?? 'none';
    const noService = () => {
      d.network_connection_status = 'no_service';
      d.network_technology_connected = 'none';
      d.network_signal_strength = 'none';
    };
    const sim = this.simStatus();
    if (sim === 'active') {
      d.network_connection_status = 'connected';
      const preference = d.network_mode_preference;
      if (preference === '4g_5g_preferred') {
        const fiveG = signal('5G');
        if (fiveG === 'none') {
          d.network_technology_connected = '4G';
          d.network_signal_strength = signal('4G');
        } else {
          d.network_technology_connected = '5G';
          d.network_signal_strength = fiveG;
        }
      } else {
        const tech = MODE_TECH[preference] ?? '4G';
        d.network_technology_connected = tech;
        d.network_signal_strength = signal(tech);
      }
    } else noService();
    if (d.airplane_mode) noService();
    if (d.active_apn_settings.apn_name === 'broken') noService();
    if (!this.surroundings.line_active) noService();
  }

  toggleAirplaneMode(): boolean {
    const d = this.device;
    const wasOn = d.airplane_mode;
    d.airplane_mode = !wasOn;
    if (wasOn) {
      d.network_connection_status = 'searching';
      if (d.wifi_enabled) this.#wifiOff(false);
    } else {
      this.#wifiOff(false);
      if (d.vpn_connected) this.disconnectVpn();
    }
    this.simulateNetworkSearch();
    return d.airplane_mode;
  }

  #wifiOff(radio: boolean): void {
    const d = this.device;
    if (radio) d.wifi_enabled = false;
    d.wifi_connected = false;
    d.wifi_ssid = null;
    d.wifi_signal_strength = 'none';
  }

  /** τ²'s turn_*_on / turn_*_off: flip the setting, and flip it again if that left it the other way. */
  #turn(toggle: () => boolean, on: boolean, message: string): string {
    if (toggle() !== on) toggle();
    return message;
  }

  toggleData(): boolean {
    this.device.data_enabled = !this.device.data_enabled;
    this.simulateNetworkSearch();
    return this.device.data_enabled;
  }

  toggleRoaming(): boolean {
    this.device.roaming_enabled = !this.device.roaming_enabled;
    this.simulateNetworkSearch();
    return this.device.roaming_enabled;
  }

  toggleDataSaver(): boolean {
    this.device.data_saver_mode = !this.device.data_saver_mode;
    return this.device.data_saver_mode;
  }

  connectVpn(): boolean | null {
    if (this.device.vpn_connected) return null;
    this.device.vpn_connected = true;
    this.device.vpn_details = this.defaultVpnDetails;
    return true;
  }

  disconnectVpn(): boolean {
    if (!this.device.vpn_connected) return false;
    this.device.vpn_connected = false;
    this.device.vpn_details = null;
    return true;
  }

  #app(name: PyValue): PyModel | undefined {
    if (Array.isArray(name) || name instanceof Map) throw typeError(`unhashable type: '${Array.isArray(name) ? 'list' : 'dict'}'`);
    return typeof name === 'string' ? (this.device.app_statuses.get(name) as PyModel | undefined) : undefined;
  }

  #grantedPermissions(app: PyModel): string[] {
    return Object.entries(app.permissions as PyModel)
      .filter(([, allowed]) => pyTruthy(allowed))
      .map(([name]) => name.replace(/_/g, ' ').toLowerCase());
  }

  readonly functions: Readonly<Record<string, ToolFunction<TelecomUserTools>>> = {
    check_status_bar: fn([], (kit) => `Status Bar: ${kit.statusBar()}`, 'read'),
    check_network_status: fn([], (kit) => kit.#networkStatus(), 'read'),
    check_network_mode_preference: fn([], (kit) => `Network Mode Preference: ${kit.device.network_mode_preference}`, 'read'),
    set_network_mode_preference: fn(['mode'], (kit, a) => kit.#setNetworkMode(a.mode!), 'write'),
    run_speed_test: fn([], (kit) => kit.#speedTestText(), 'read'),
    toggle_airplane_mode: fn([], (kit) => kit.withStatusBar(`Airplane Mode is now ${onOff(kit.toggleAirplaneMode())}.`), 'write'),
    check_sim_status: fn([], (kit) => SIM_TEXT[kit.simStatus()] ?? `Unknown SIM status: ${kit.simStatus()}`, 'read'),
    reseat_sim_card: fn([], (kit) => {
      kit.device.sim_card_missing = false;
      kit.simulateNetworkSearch();
      return kit.withStatusBar('SIM card re-seated successfully.');
    }, 'write'),
    toggle_data: fn([], (kit) => kit.withStatusBar(`Mobile Data is now ${onOff(kit.toggleData())}.`), 'write'),
    toggle_roaming: fn([], (kit) => kit.withStatusBar(`Data Roaming is now ${onOff(kit.toggleRoaming())}.`), 'write'),
    check_data_restriction_status: fn([], (kit) => (kit.device.data_saver_mode ? 'Data Saver mode is ON (limits data usage).' : 'Data Saver mode is OFF.'), 'read'),
    toggle_data_saver_mode: fn([], (kit) => kit.withStatusBar(`Data Saver Mode is now ${onOff(kit.toggleDataSaver())}.`), 'write'),
    check_apn_settings: fn([], (kit) => {
      const apn = kit.device.active_apn_settings;
      const name = pyTruthy(apn.apn_name!) ? pyStr(apn.apn_name!) : 'Not Set';
      const mmsc = pyTruthy(apn.mmsc_url!) ? pyStr(apn.mmsc_url!) : 'Not Set';
      return `Current APN Name: ${name}\nMMSC URL (for picture messages): ${mmsc}\n(These are technical settings, usually best left unchanged.)`;
    }, 'read'),
    set_apn_settings: fn(['apn_settings'], (kit, a) => kit.#setApn(a.apn_settings!), 'write'),
    reset_apn_settings: fn([], (kit) => {
      kit.device.active_apn_settings.reset_at_reboot = true;
      kit.simulateNetworkSearch();
      return kit.withStatusBar('APN settings will reset at reboot.');
    }, 'write'),
    check_wifi_status: fn([], (kit) => {
      const d = kit.device;
      if (!d.wifi_enabled) return 'Wi-Fi is turned OFF.';
      if (d.wifi_connected) return `Wi-Fi is ON and connected to '${pyStr(d.wifi_ssid)}'. Signal strength: ${d.wifi_signal_strength}.`;
      return 'Wi-Fi is ON but not connected to any network.';
    }, 'read'),
    toggle_wifi: fn([], (kit) => {
      const d = kit.device;
      if (d.airplane_mode) return `Cannot change Wi-Fi settings while Airplane Mode is ON.\nStatus Bar: ${kit.statusBar()}`;
      const on = !d.wifi_enabled;
      d.wifi_enabled = on;
      if (!on) kit.#wifiOff(false);
      return kit.withStatusBar(`Wi-Fi is now ${onOff(on)}.`);
    }, 'write'),
    check_wifi_calling_status: fn([], (kit) => `Wi-Fi Calling is currently turned ${onOff(kit.device.wifi_calling_enabled)}.`, 'read'),
    toggle_wifi_calling: fn([], (kit) => {
      kit.device.wifi_calling_enabled = !kit.device.wifi_calling_enabled;
      return kit.withStatusBar(`Wi-Fi Calling is now ${onOff(kit.device.wifi_calling_enabled)}.`);
    }, 'write'),
    check_vpn_status: fn([], (kit) => kit.#vpnStatus(), 'read'),
    connect_vpn: fn([], (kit) => {
      const connected = kit.connectVpn();
      if (connected === null) return 'VPN already connected.';
      return kit.withStatusBar(connected ? 'VPN connected successfully.' : 'No VPN connection to connect.');
    }, 'write'),
    disconnect_vpn: fn([], (kit) => kit.withStatusBar(kit.disconnectVpn() ? 'VPN disconnected successfully.' : 'No active VPN connection to disconnect.'), 'write'),
    check_installed_apps: fn([], (kit) => `The following apps are installed on the phone: ${[...kit.device.app_statuses.keys()].join(', ')}`, 'read'),
    check_app_status: fn(['app_name'], (kit, a) => kit.#appStatus(a.app_name!), 'read'),
    check_app_permissions: fn(['app_name'], (kit, a) => {
      const app = kit.#app(a.app_name!);
      if (!app) return `App '${pyStr(a.app_name!)}' not found on this phone.`;
      const granted = kit.#grantedPermissions(app);
      if (granted.length === 0) return `App '${pyStr(a.app_name!)}' currently has no permissions granted.`;
      return `App '${pyStr(a.app_name!)}' has permission for: ${granted.join(', ')}.`;
    }, 'read'),
    grant_app_permission: fn(['app_name', 'permission'], (kit, a) => kit.#grant(a.app_name!, a.permission!), 'write'),
    can_send_mms: fn([], (kit) => (kit.canSendMms() ? 'Your messaging app can send MMS messages.' : 'Your messaging app cannot send MMS messages.'), 'read'),
    reboot_device: fn([], (kit) => kit.withStatusBar(kit.#reboot()), 'write'),
    check_payment_request: fn([], (kit) => {
      const request = kit.surroundings.payment_request;
      if (request === null) return 'No payment request has been made.';
      return `You have a payment request for bill ${request.bill_id} of ${pyStr(request.amount_due)} USD.`;
    }, 'read'),
    make_payment: fn([], (kit) => {
      const request = kit.surroundings.payment_request;
      if (request === null) return 'You do not have a payment request.';
      request.paid = true;
      return `Payment of ${pyStr(request.amount_due)} USD has been made for bill ${request.bill_id}.`;
    }, 'write'),

    // Scenario set-up (tasks' initialization_actions).
    simulate_network_search: fn([], (kit) => {
      kit.simulateNetworkSearch();
      return null;
    }),
    set_user_info: fn(['name', 'phone_number'], (kit, a) => {
      kit.surroundings.name = a.name!;
      kit.surroundings.phone_number = a.phone_number!;
      return null;
    }),
    set_user_location: fn(['abroad'], (kit, a) => {
      kit.surroundings.is_abroad = a.abroad!;
      return null;
    }),
    turn_airplane_mode_on: fn([], (kit) => kit.#turn(() => kit.toggleAirplaneMode(), true, 'Airplane Mode is now ON.')),
    turn_airplane_mode_off: fn([], (kit) => kit.#turn(() => kit.toggleAirplaneMode(), false, 'Airplane Mode is now OFF.')),
    unseat_sim_card: fn([], (kit) => {
      kit.device.sim_card_missing = true;
      kit.simulateNetworkSearch();
      return 'SIM card un-seated successfully.';
    }),
    lock_sim_card: fn(['mode'], (kit, a) => {
      if (a.mode === 'pin') kit.device.sim_card_status = 'locked_pin';
      else if (a.mode === 'puk') kit.device.sim_card_status = 'locked_puk';
      kit.simulateNetworkSearch();
      return `SIM card locked successfully in ${pyStr(a.mode!)} mode.`;
    }),
    turn_data_on: fn([], (kit) => {
      kit.device.data_enabled = true;
      return 'Data connection restored.';
    }),
    turn_data_off: fn([], (kit) => kit.#turn(() => kit.toggleData(), false, 'Data connection broken.')),
    turn_roaming_on: fn([], (kit) => kit.#turn(() => kit.toggleRoaming(), true, 'Data Roaming is now ON.')),
    turn_roaming_off: fn([], (kit) => kit.#turn(() => kit.toggleRoaming(), false, 'Data Roaming is now OFF.')),
    turn_data_saver_mode_on: fn([], (kit) => kit.#turn(() => kit.toggleDataSaver(), true, 'Data Saver Mode is now ON.')),
    turn_data_saver_mode_off: fn([], (kit) => kit.#turn(() => kit.toggleDataSaver(), false, 'Data Saver Mode is now OFF.')),
    break_apn_settings: fn([], (kit) => {
      kit.device.active_apn_settings.apn_name = 'broken';
      kit.simulateNetworkSearch();
      if (kit.device.network_connection_status !== 'no_service') throw assertionError();
      return 'APN settings broken. Please call reset_apn_settings() to fix.';
    }),
    break_apn_mms_setting: fn([], (kit) => {
      kit.device.active_apn_settings.mmsc_url = null;
      if (kit.canSendMms()) throw assertionError();
      return 'APN MMS setting broken. Please call reset_apn_settings() to fix.';
    }),
    set_wifi_calling: fn(['enabled', { name: 'mms_over_wifi', default: () => null }], (kit, a) => {
      if (!pyEquals(kit.device.wifi_calling_enabled, a.enabled!)) kit.device.wifi_calling_enabled = !kit.device.wifi_calling_enabled;
      let message = `Wi-Fi Calling is now ${onOff(a.enabled!)}.`;
      if (a.mms_over_wifi !== null) {
        kit.device.wifi_calling_mms_over_wifi = a.mms_over_wifi as boolean;
        message += `\nMMS over Wi-Fi is now ${onOff(a.mms_over_wifi!)}.`;
      }
      return message;
    }),
    break_vpn: fn([], (kit) => {
      kit.functions.connect_vpn!.run(kit, {});
      kit.device.vpn_details!.server_performance = 'poor';
      return 'VPN connection broken.';
    }),
    remove_app_permission: fn(['app_name', 'permission'], (kit, a) => {
      const app = kit.#app(a.app_name!);
      const permission = lower(a.permission!);
      if (!app) return [false, `App '${pyStr(a.app_name!)}' not found. Cannot remove permission.`];
      if (!Object.hasOwn(app.permissions as PyModel, permission)) return [false, `Permission '${permission}' not tracked for app '${pyStr(a.app_name!)}'.`];
      (app.permissions as PyModel)[permission] = false;
      return [true, `Permission '${permission}' removed from app '${pyStr(a.app_name!)}'.`];
    }),

    // Assertions (tasks' env_assertions).
    assert_airplane_mode_status: fn(['expected_status'], (kit, a) => pyEquals(kit.device.airplane_mode, a.expected_status!)),
    assert_service_status: fn(['expected_status'], (kit, a) => {
      if (typeof a.expected_status !== 'string' || !(NETWORK_STATUS as readonly string[]).includes(a.expected_status)) throw valueError(`${pyRepr(a.expected_status!)} is not a valid NetworkStatus`);
      return kit.device.network_connection_status === a.expected_status;
    }),
    assert_mobile_data_status: fn(['expected_status'], (kit, a) => pyEquals(kit.mobileDataWorking(), a.expected_status!)),
    assert_mobile_roaming_status: fn(['expected_status'], (kit, a) => pyEquals(kit.device.roaming_enabled, a.expected_status!)),
    assert_mobile_data_saver_mode_status: fn(['expected_status'], (kit, a) => pyEquals(kit.device.data_saver_mode, a.expected_status!)),
    assert_internet_speed: fn(['expected_speed', { name: 'expected_desc', default: () => null }], (kit, a) => {
      const [speed, description] = kit.speedTest();
      const measured = speed ?? 0.0;
      const expected = a.expected_speed as number | { value: number };
      const floor = typeof expected === 'number' ? expected : expected.value;
      if (a.expected_desc === null) return measured >= floor;
      return measured >= floor && description.toLowerCase() === (a.expected_desc as string).toLowerCase();
    }),
    assert_internet_not_excellent: fn([], (kit) => kit.speedTest()[1].toLowerCase() !== 'excellent'),
    assert_can_send_mms: fn(['expected_status'], (kit, a) => pyEquals(kit.canSendMms(), a.expected_status!)),
    assert_mobile_data_usage_exceeded: fn(['expected_status'], (kit, a) => pyEquals(kit.surroundings.mobile_data_usage_exceeded, a.expected_status!)),
  };

  #networkStatus(): string {
    const d = this.device;
    const lines = [
      `Airplane Mode: ${onOff(d.airplane_mode)}`,
      `SIM Card Status: ${this.simStatus()}`,
      `Cellular Connection: ${d.network_connection_status}`,
      `Cellular Signal: ${d.network_signal_strength}`,
      `Cellular Network Type: ${d.network_technology_connected}`,
      `Mobile Data Enabled: ${yesNo(d.data_enabled)}`,
      `Data Roaming Enabled: ${yesNo(d.roaming_enabled)}`,
      `Wi-Fi Radio: ${onOff(d.wifi_enabled)}`,
      `Wi-Fi Connected: ${yesNo(d.wifi_connected)}`,
    ];
    if (d.wifi_connected) lines.push(`Connected Wi-Fi Network: ${pyStr(d.wifi_ssid)}`);
    return lines.join('\n');
  }

  #setNetworkMode(mode: PyValue): string {
    if (typeof mode !== 'string' || !(NETWORK_MODE as readonly string[]).includes(mode)) {
      return `Failed to set network mode: '${pyStr(mode)}' is not a valid option. Please use one of: ${NETWORK_MODE.join(', ')}\nStatus Bar: ${this.statusBar()}`;
    }
    this.device.network_mode_preference = mode;
    this.simulateNetworkSearch();
    return this.withStatusBar(`Preferred Network Mode set to: ${mode}`);
  }

  #speedTestText(): string {
    const [speed, description] = this.speedTest();
    if (speed === null) return `Speed test failed: ${description || 'Could not determine speed'}.`;
    const advice: Record<string, string> = {
      'Very Poor': 'Connection is very slow. Basic web browsing might be difficult.',
      Poor: 'Connection is slow. Web browsing may be sluggish, streaming difficult.',
      Fair: 'Connection is okay for web browsing and some standard definition streaming.',
      Good: 'Connection is good for most activities, including HD streaming.',
      Excellent: 'Connection is very fast.',
    };
    return `Speed Test Result: ${formatFixed(speed, 2)} Mbps (${description}). ${advice[description] ?? ''}`;
  }

  #setApn(settings: PyValue): string {
    const apn = settings instanceof Map ? construct(APNSettings, Object.fromEntries(settings)) : settings;
    if (!isModel(apn)) throw attributeError(pyTypeName(settings), 'apn_name');
    this.device.active_apn_settings = apn;
    const status = `APN settings set to: ${pyStr(apn.apn_name!)}`;
    this.simulateNetworkSearch();
    return this.withStatusBar(status);
  }

  #vpnStatus(): string {
    const d = this.device;
    if (d.vpn_connected) {
      const details = d.vpn_details;
      if (details) {
        const shown = Object.entries(details).map(([k, v]) => `${strRepr(k)}: ${k === 'server_performance' ? PERFORMANCE_REPR(v as string) : pyRepr(v)}`);
        return `VPN is ON and connected. Details: {${shown.join(', ')}}`;
      }
      return 'VPN is ON and connected (no specific details available).';
    }
    if (d.vpn_enabled_setting) return 'VPN is turned ON in settings, but currently not connected.';
    return 'VPN is turned OFF.';
  }

  #appStatus(name: PyValue): string {
    const app = this.#app(name);
    if (!app) return `App '${pyStr(name)}' not found on this phone.`;
    const lines = [`Status for App: ${pyStr(name)}`];
    const granted = this.#grantedPermissions(app);
    if (granted.length === 0) lines.push(' - Permissions: None granted.');
    else lines.push(' - Permissions Granted:', ...granted.map((p) => `   - ${p}`));
    return lines.join('\n');
  }

  #grant(name: PyValue, permissionValue: PyValue): string {
    const app = this.#app(name);
    const permission = lower(permissionValue);
    let result: [boolean, string];
    if (app) {
      const available = Object.keys(app.permissions as PyModel);
      if (!available.includes(permission)) result = [false, `Permission '${permission}' not tracked for app '${pyStr(name)}', available permissions: ${pyRepr(available)}`];
      else {
        (app.permissions as PyModel)[permission] = true;
        result = [true, `Permission '${permission}' granted to app '${pyStr(name)}'.`];
      }
    } else result = [false, `App '${pyStr(name)}' not found. Cannot grant permission.`];
    return this.withStatusBar(`${result[0] ? 'Success. ' : 'Error. '}${result[1]}`);
  }

  #reboot(): string {
    const lines: string[] = [];
    if (this.device.active_apn_settings.reset_at_reboot) {
      lines.push('Resetting APN settings...');
      this.device.active_apn_settings = defaultOf(APNSettings);
    }
    lines.push('Restarting network services...');
    this.device.network_connection_status = 'searching';
    this.simulateNetworkSearch();
    return lines.join('\n');
  }
}
