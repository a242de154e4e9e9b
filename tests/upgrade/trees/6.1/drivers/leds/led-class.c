// SPDX-License-Identifier: GPL-2.0
/* t-upgrade's fake 6.1 tree: the LED class's attributes. */
static DEVICE_ATTR_RW(brightness);
static DEVICE_ATTR_RO(max_brightness);
static BIN_ATTR(trigger, 0644, led_trigger_read, led_trigger_write, 0);
/* near misses: another name, a name it begins, not an attribute macro */
static DEVICE_ATTR_RW(max_brightness_x);
static DEVICE_ATTR_RO(max);
LED_DEVICE_ATTR(trigger);
DEVICE_ATTRIBUTE(brightness);
#define TRIGGER_ATTR(x) DEVICE_ATTR_RO(trigger ## x)
