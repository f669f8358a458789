/** The words the seeded data is made of: offices, rooms, equipment models, defects, names. */

export interface Site {
  location: string;
  building: string;
  floors: readonly number[];
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Taken round-robin (one floor of each site in turn), so even a few departments span several cities. */
export const SITES: readonly Site[] = [
  { location: 'Berlin', building: 'Friedrichstraße 68', floors: range(1, 6) },
  { location: 'Munich', building: 'Werksviertel Tower', floors: range(2, 9) },
  { location: 'London', building: '10 Bishopsgate', floors: range(3, 8) },
  { location: 'Amsterdam', building: 'Zuidas Tower B', floors: range(4, 8) },
  { location: 'Hamburg', building: 'HafenCity, Haus 3', floors: range(0, 4) },
  { location: 'Paris', building: 'La Défense, Tour Europlaza', floors: range(12, 16) },
  { location: 'Zurich', building: 'Europaallee 21', floors: range(1, 4) },
  { location: 'Vienna', building: 'Austria Campus 3', floors: range(2, 5) },
  { location: 'Madrid', building: 'Torre Picasso', floors: range(20, 23) },
  { location: 'Berlin', building: 'Campus Adlershof, Building B', floors: range(0, 3) },
  { location: 'Stockholm', building: 'Kungsbron 2', floors: range(1, 3) },
  { location: 'Dublin', building: 'The Reflector, Hanover Quay', floors: range(1, 3) },
  { location: 'Warsaw', building: 'Varso Place', floors: range(10, 12) },
  { location: 'Lisbon', building: 'Amoreiras Tower 2', floors: range(5, 7) },
];

/** Room kinds with how many desks such a room tends to hold, relative to the others. */
export const ROOM_KINDS: readonly (readonly [kind: string, deskWeight: number, frequency: number])[] = [
  ['Open Space', 2.2, 5],
  ['Team Room', 1.0, 6],
  ['Project Room', 0.8, 3],
  ['Quiet Zone', 0.7, 2],
  ['Focus Room', 0.3, 2],
  ['Lab', 0.9, 1],
];

export type EquipmentType = 'DOCKING_STATION' | 'MONITOR' | 'KEYBOARD' | 'MOUSE' | 'HEADSET' | 'WEBCAM' | 'CHAIR' | 'OTHER';

export const EQUIPMENT_MODELS: Record<EquipmentType, readonly (readonly [name: string, description: string])[]> = {
  DOCKING_STATION: [
    ['Dell WD19S docking station', 'USB-C dock, 90 W charging, 2× DisplayPort, HDMI, Gigabit Ethernet, 3× USB-A.'],
    ['Lenovo ThinkPad USB-C Dock Gen 2', 'USB-C dock, 90 W charging, 2× DisplayPort, HDMI, Gigabit Ethernet, audio jack.'],
    ['HP USB-C Dock G5', 'Universal USB-C dock, 100 W charging, 2× DisplayPort, HDMI, Ethernet.'],
    ['CalDigit TS4 Thunderbolt dock', 'Thunderbolt 4 dock, 98 W charging, DisplayPort 1.4, 2.5 GbE, SD card reader.'],
    ['Anker 563 USB-C docking station', '10-in-1 USB-C dock, 100 W pass-through, 2× HDMI, DisplayPort, Ethernet.'],
  ],
  MONITOR: [
    ['Dell UltraSharp U2723QE monitor', '27" 4K IPS monitor with USB-C hub (90 W), height-adjustable stand.'],
    ['LG 34WN80C ultrawide monitor', '34" curved 3440×1440 IPS monitor, USB-C (60 W), tilt and height adjustable.'],
    ['Lenovo ThinkVision T24i-30 monitor', '24" Full HD IPS monitor, HDMI and DisplayPort, pivot stand.'],
    ['EIZO FlexScan EV2795 monitor', '27" 2560×1440 IPS monitor, USB-C daisy chain, flicker-free backlight.'],
    ['Samsung ViewFinity S8 monitor', '27" 4K monitor, USB-C (90 W), height-adjustable stand.'],
    ['HP E24 G5 monitor', '24" Full HD IPS monitor, DisplayPort and HDMI, anti-glare.'],
  ],
  KEYBOARD: [
    ['Logitech MX Keys keyboard', 'Wireless keyboard, backlit, German (QWERTZ) layout, Logi Bolt receiver.'],
    ['Cherry Stream keyboard', 'Wired USB keyboard, quiet scissor keys, UK layout.'],
    ['Microsoft Ergonomic keyboard', 'Split ergonomic keyboard with cushioned palm rest, US layout.'],
  ],
  MOUSE: [
    ['Logitech MX Master 3S mouse', 'Wireless mouse, quiet clicks, USB-C charging, Logi Bolt receiver.'],
    ['Logitech Lift vertical mouse', 'Vertical ergonomic mouse for medium to large hands.'],
    ['Microsoft Bluetooth mouse', 'Compact Bluetooth mouse, AA battery.'],
  ],
  HEADSET: [
    ['Jabra Evolve2 65 headset', 'Wireless stereo headset with busy light and USB-C dongle, certified for Teams.'],
    ['Poly Voyager Focus 2 headset', 'Noise-cancelling stereo headset with charging stand.'],
    ['Sennheiser SC 160 headset', 'Wired USB headset with noise-cancelling microphone.'],
  ],
  WEBCAM: [
    ['Logitech Brio 4K webcam', '4K webcam with HDR and privacy shutter, mounted on the monitor.'],
    ['Logitech C920 webcam', 'Full HD webcam with stereo microphones.'],
    ['Jabra PanaCast 20 webcam', '4K personal webcam with intelligent zoom.'],
  ],
  CHAIR: [
    ['Herman Miller Aeron chair', 'Ergonomic office chair, size B, adjustable lumbar support and arms.'],
    ['Steelcase Leap V2 chair', 'Ergonomic office chair with adjustable seat depth and arms.'],
    ['Sedus se:motion chair', 'Office chair with synchronised mechanism and headrest.'],
  ],
  OTHER: [
    ['Desk lamp', 'LED desk lamp, dimmable, with USB charging port.'],
    ['Monitor arm (dual)', 'Gas-spring arm for two monitors up to 32", clamp mount.'],
    ['Laptop stand', 'Aluminium laptop stand, height adjustable.'],
    ['Footrest', 'Adjustable footrest with massage surface.'],
    ['Whiteboard panel', 'Small magnetic whiteboard panel on the desk partition.'],
  ],
};

/**
 * The item types of one desk in the order they are added: a desk with one item has a monitor,
 * with two a docking station as well; further items are drawn by weight.
 */
export const DESK_KIT: readonly EquipmentType[] = ['MONITOR', 'DOCKING_STATION'];
export const EXTRA_EQUIPMENT: readonly (readonly [EquipmentType, number])[] = [
  ['MONITOR', 5],
  ['KEYBOARD', 3],
  ['MOUSE', 3],
  ['HEADSET', 2],
  ['WEBCAM', 2],
  ['CHAIR', 1],
  ['OTHER', 2],
];

export interface Defect {
  title: string;
  details: readonly string[];
}

const defect = (title: string, ...details: string[]): Defect => ({ title, details });

export const EQUIPMENT_DEFECTS: Record<EquipmentType, readonly Defect[]> = {
  DOCKING_STATION: [
    defect('Docking station does not charge the laptop', 'The laptop runs on battery while docked.', 'Charging stops after a few minutes.'),
    defect('No picture through the docking station', 'Both monitors stay black when the laptop is docked.', 'Only one of the two monitors gets a signal.'),
    defect('Network port of the docking station is dead', 'No link light on the Ethernet port; Wi-Fi works.'),
    defect('Docking station keeps disconnecting', 'USB devices drop every few minutes.', 'The dock restarts by itself now and then.'),
  ],
  MONITOR: [
    defect('Monitor flickers', 'The picture flickers every few seconds.', 'Flickering gets worse after an hour.'),
    defect('Monitor shows no signal', 'The monitor says "No signal" with every cable.', 'The power light is on but the screen stays black.'),
    defect('Dead pixels on the monitor', 'A cluster of dead pixels in the middle of the screen.'),
    defect('Monitor stand does not hold its height', 'The screen slowly sinks to the lowest position.'),
  ],
  KEYBOARD: [
    defect('Keys stick on the keyboard', 'Space bar and Enter stick.', 'Several keys have to be pressed twice.'),
    defect('Keyboard has the wrong layout', 'The layout does not match the key caps.'),
  ],
  MOUSE: [
    defect('Mouse cursor jumps', 'The cursor jumps around on every surface.'),
    defect('Mouse does not pair', 'The mouse does not connect to the receiver.'),
  ],
  HEADSET: [
    defect('Headset microphone does not work', 'Other participants cannot hear me.'),
    defect('Headset battery drains quickly', 'The battery lasts less than an hour.'),
  ],
  WEBCAM: [defect('Webcam picture is blurry', 'The autofocus does not work.'), defect('Webcam is not recognised', 'The laptop does not find the camera.')],
  CHAIR: [defect('Chair sinks down', 'The gas lift does not hold the seat height.'), defect('Armrest of the chair is loose', 'The left armrest wobbles.')],
  OTHER: [
    defect('Desk lamp does not switch on', 'The lamp stays off; the socket works.'),
    defect('Monitor arm is loose', 'The clamp came loose and the arm tilts.'),
  ],
};

export const DESK_DEFECTS: readonly Defect[] = [
  defect('Desk height adjustment is stuck', 'The electric motor makes a noise but the desk does not move.', 'The desk only moves down, not up.'),
  defect('Desk wobbles', 'The desk shakes when typing.'),
  defect('Power socket at the desk is dead', 'None of the sockets in the desk outlet have power.'),
  defect('Cable tray under the desk hangs loose', 'One screw of the cable tray is missing.'),
  defect('Network port at the desk is dead', 'No connection on the floor box port.'),
];

export const ROOM_DEFECTS: readonly Defect[] = [
  defect('Room is too cold', 'The air conditioning blows cold air all day.', 'Temperature is below 19 °C in the morning.'),
  defect('Ceiling light flickers', 'One of the ceiling panels flickers constantly.'),
  defect('Window blind is stuck', 'The blind does not go up; the sun is blinding in the afternoon.'),
  defect('Wi-Fi drops in the room', 'The connection drops every few minutes.'),
  defect('Door does not lock', 'The badge reader accepts the badge but the door stays locked.', 'The door does not close properly.'),
  defect('Whiteboard cannot be cleaned', 'Old marker stains do not come off.'),
];

export const DEPARTMENT_DEFECTS: readonly Defect[] = [
  defect('Coffee machine is broken', 'The machine shows an error and gives no coffee.'),
  defect('Printer is out of toner', 'The floor printer prints blank pages.'),
  defect('Lift is out of order', 'The lift does not stop at this floor.'),
  defect('Kitchen sink is blocked', 'Water does not drain in the kitchen on this floor.'),
  defect('Toilets out of order', 'Two of the toilets on this floor do not flush.'),
];

export const DEFECT_FOLLOW_UPS: readonly string[] = [
  'Please have a look.',
  'It happened several times this week.',
  'Colleagues noticed it too.',
  'It was fine yesterday.',
  'Restarting did not help.',
  'Not urgent, but annoying.',
  'This makes the place hard to use.',
];

export const FIRST_NAMES: readonly string[] = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Elena',
  'Felix',
  'Greta',
  'Hannah',
  'Ivan',
  'Julia',
  'Karim',
  'Laura',
  'Mateo',
  'Nina',
  'Oliver',
  'Paula',
  'Quentin',
  'Rosa',
  'Samuel',
  'Tara',
  'Umar',
  'Vera',
  'William',
  'Xenia',
  'Yusuf',
  'Zoe',
  'Amelie',
  'Jonas',
  'Leonie',
  'Lukas',
  'Marie',
  'Noah',
  'Sofia',
  'Emil',
  'Ida',
  'Aisha',
  'Chen',
  'Priya',
  'Sven',
  'Lucía',
];

export const LAST_NAMES: readonly string[] = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Hoffmann',
  'Koch',
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Martin',
  'Bernard',
  'Dubois',
  'Moreau',
  'García',
  'Fernández',
  'López',
  'Silva',
  'Santos',
  'Rossi',
  'Russo',
  'Novak',
  'Kowalski',
  'Nowak',
  'Jansen',
  'de Vries',
  'Andersson',
  'Johansson',
  'Nielsen',
  'Murphy',
  'Kelly',
  'Yılmaz',
  'Wang',
  'Patel',
];
