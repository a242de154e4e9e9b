// SPDX-License-Identifier: GPL-2.0
/* t-upgrade's fake 6.12 tree: the LED class's attributes. */
#define ATTR_NAME(x) __ATTR(x, 0664, x##_show, x##_store)

static struct device_attribute dev_attr_brightness =
	__ATTR(brightness, 0664, brightness_show, brightness_store);
static DEVICE_ATTR_RO(max_brightness);
static const BIN_ATTR(trigger, 0644, led_trigger_read, led_trigger_write, 0);
static DEVICE_ATTR_RW(pattern_x);
