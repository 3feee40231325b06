"""The title gate's ``started_at`` cases (``conformance/cases/title/start.json``): one or more
per rule of "Reading the start" (TTL-019 to TTL-027), the expected answers from the published
helper's oracle, as every title case."""

import json

from gate_fixtures_restart import title_case

OK, FAIL = "TTL-010", "TTL-009"


def _case(name, description, requirements, started_at, *, fails=False):
    payload = {"title": "Audit", "started_at": started_at}
    requirements = [*requirements, FAIL if fails else OK]
    if any("\ud800" <= character <= "\udfff" for character in started_at):
        # a lone surrogate cannot stand in a UTF-8 fixture file: the input is JSON text
        return title_case(f"start.{name}", description, requirements, text=json.dumps(payload))
    return title_case(f"start.{name}", description, requirements, payload)


#: (name, description, requirement ids, started_at, fails)
CASES = (
    # TTL-019: every Z is an offset; z is not
    ("z_is_utc", "a Z is read as +00:00", ["TTL-019"], "2026-09-05T23:30:00Z", False),
    ("lowercase_z", "a lowercase z is not replaced: no offset", ["TTL-019", "TTL-003"], "2026-09-05T23:30:00z", True),
    ("two_z", "two Zs are two offsets", ["TTL-019"], "2026-09-05T23:30:00ZZ", True),
    ("z_after_offset", "a Z after an offset is a second offset", ["TTL-019"], "2026-09-05T23:30:00+01:00Z", True),
    ("z_as_separator", "a Z between date and time becomes +00:00, leaving the time without an offset",
     ["TTL-019", "TTL-024"], "2026-09-05Z23:30", True),
    ("date_then_z", "a date and a Z: +00:00 is read as separator and time, with no offset", ["TTL-019", "TTL-024"],
     "2026-09-05Z", True),
    # TTL-020: lone surrogates
    ("surrogate_separator", "a lone surrogate as the separator is read as T", ["TTL-020", "TTL-023"],
     "2026-09-05\udc8023:30:00Z", False),
    ("surrogate_at_character_10", "a lone surrogate at character 10 is read as T even after the hour",
     ["TTL-020", "TTL-025"], "2026W36T23\udc80+00:00", False),
    ("surrogate_in_time", "a lone surrogate inside the time fails", ["TTL-020"], "2026-09-05T23:30\udc80+00:00", True),
    ("two_surrogates", "a second lone surrogate fails", ["TTL-020"], "2026-09-05\udc80\udc80+00:00", True),
    # TTL-021: the forms of the date and the separator's position
    ("basic_date", "the basic calendar form YYYYMMDD", ["TTL-021"], "20260905T233000Z", False),
    ("week_date", "the week date YYYY-Www-D is its calendar date", ["TTL-021", "TTL-022"], "2026-W36-6T23:30Z", False),
    ("week_date_basic", "the basic week date YYYYWwwD", ["TTL-021", "TTL-022"], "2026W366T23:30Z", False),
    ("week_without_day", "a week without a day is its Monday", ["TTL-021", "TTL-022"], "2026-W36T23:30Z", False),
    ("week_basic_without_day", "a basic week without a day is its Monday", ["TTL-021", "TTL-022"], "2026W36T23:30Z", False),
    ("week_hyphen_separator", "a week YYYY-Www, a hyphen and digits: the hyphen is the separator", ["TTL-021"],
     "2026-W36-23:30Z", False),
    ("week_day_hyphen_separator", "a week date YYYY-Www-D and a hyphen: the second hyphen is the separator", ["TTL-021"],
     "2026-W36-6-23:30Z", False),
    ("week_basic_odd_digits", "three digits after YYYYWww: no day, the first digit is the separator", ["TTL-021"],
     "2026W36123+00:00", False),
    ("week_basic_even_digits", "four digits after YYYYWww: a day, the second digit is the separator", ["TTL-021"],
     "2026W366123+00:00", False),
    ("week_basic_two_digits", "two digits after YYYYWww: a day and a separator, then no time", ["TTL-021"],
     "2026W3612+00:00", True),
    ("week_then_digit", "a week YYYY-Www and a digit: the digit is the separator", ["TTL-021", "TTL-023"], "2026-W36123:30Z", False),
    ("ordinal_date", "an ordinal date is not a form", ["TTL-021"], "2026-248T23:30Z", True),
    ("reduced_month", "a year and a month are not a form", ["TTL-021"], "2026-09T23:30Z", True),
    ("mixed_hyphens", "a hyphen after the year but none after the month", ["TTL-021"], "2026-0905T23:30Z", True),
    ("one_digit_month", "a month of one digit", ["TTL-021"], "2026-9-05T23:30Z", True),
    ("lowercase_week", "a lowercase w is not a week", ["TTL-021"], "2026-w36-6T23:30Z", True),
    ("non_ascii_digits", "digits outside ASCII are not digits", ["TTL-021"], "\u0662\u0660\u0662\u0666-09-05T23:30:00Z", True),
    ("signed_year", "a sign before the year", ["TTL-021"], "+2026-09-05T23:30:00Z", True),
    ("no_separator", "a date run into its time: the hour's first digit is taken as the separator", ["TTL-021", "TTL-023"],
     "2026-09-0523:30:00Z", True),
    ("date_only", "a date alone holds no offset", ["TTL-021", "TTL-003"], "2026-09-05", True),
    # TTL-022: the days of the calendar
    ("year_0000", "year 0000 is outside the calendar", ["TTL-022"], "0000-01-01T00:00Z", True),
    ("year_0001", "year 0001 is the first", ["TTL-022"], "0001-01-01T00:00Z", False),
    ("year_9999", "the last instant of year 9999", ["TTL-022"], "9999-12-31T23:59:59.999999Z", False),
    ("february_29_common_year", "29 February of a common year", ["TTL-022"], "2026-02-29T00:00Z", True),
    ("february_29_leap_year", "29 February of a leap year", ["TTL-022"], "2024-02-29T00:00Z", False),
    ("february_29_1900", "1900 is not a leap year", ["TTL-022"], "1900-02-29T00:00Z", True),
    ("day_31_of_september", "a day the month does not have", ["TTL-022"], "2026-09-31T00:00Z", True),
    ("day_32", "day 32", ["TTL-022"], "2026-01-32T00:00Z", True),
    ("month_00", "month 00", ["TTL-022"], "2026-00-10T00:00Z", True),
    ("week_53_thursday_year", "week 53 of a year starting on a Thursday", ["TTL-022"], "2026-W53-1T00:00Z", False),
    ("week_53_leap_wednesday_year", "week 53 of a leap year starting on a Wednesday", ["TTL-022"], "2020-W53-7T00:00Z", False),
    ("week_53_short_year", "week 53 of a year with 52 weeks", ["TTL-022"], "2025-W53-1T00:00Z", True),
    ("week_00", "week 00", ["TTL-022"], "2026-W00-1T00:00Z", True),
    ("week_day_0", "week day 0", ["TTL-022"], "2026-W01-0T00:00Z", True),
    ("week_day_8", "week day 8", ["TTL-022"], "2026-W01-8T00:00Z", True),
    ("week_in_previous_year", "week 1 can start in the previous calendar year", ["TTL-022"], "2026-W01-1T00:00Z", False),
    ("week_past_9999", "a week date that would fall in year 10000", ["TTL-022"], "9999-W52-6T00:00Z", True),
    # TTL-023: the separator is any one character
    ("separator_lowercase_t", "a lowercase t separates", ["TTL-023"], "2026-09-05t23:30:00Z", False),
    ("separator_letter", "any letter separates", ["TTL-023"], "2026-09-05x23:30:00Z", False),
    ("separator_plus", "a plus sign separates, and is not the offset", ["TTL-023"], "2026-09-05+23:30-01:00", False),
    ("separator_digit", "a digit separates", ["TTL-023"], "2026-09-05123:30Z", False),
    ("separator_non_ascii", "a letter outside ASCII separates", ["TTL-023"], "2026-09-05\u00e923:30Z", False),
    ("separator_emoji", "a character outside the BMP separates", ["TTL-023"], "2026-09-05\U0001f68023:30Z", False),
    ("two_separators", "two characters between date and time", ["TTL-023"], "2026-09-05TT23:30Z", True),
    # TTL-024: an offset needs a sign after the separator
    ("time_without_offset", "a time without a sign has no offset", ["TTL-024", "TTL-003"], "2026-09-05T23:30:00", True),
    # TTL-025: the time
    ("hour_only", "an hour alone", ["TTL-025"], "2026-09-05T23Z", False),
    ("hour_minute_basic", "a basic time HHMM", ["TTL-025"], "2026-09-05T2330Z", False),
    ("hour_minute_extended", "an extended time HH:MM", ["TTL-025"], "2026-09-05T23:30+02:00", False),
    ("basic_seconds", "a basic time HHMMSS", ["TTL-025"], "2026-09-05T233015Z", False),
    ("basic_then_colon", "a basic HHMM and a colon: a basic time takes no colon", ["TTL-025"], "2026-09-05T2330:00Z", True),
    ("extended_then_basic", "an extended HH:MM and SS without a colon", ["TTL-025"], "2026-09-05T23:3000Z", True),
    ("one_digit_minute", "a minute of one digit", ["TTL-025"], "2026-09-05T23:3Z", True),
    ("one_digit_hour", "an hour of one digit", ["TTL-025"], "2026-09-05T3:30Z", True),
    ("ignored_letter", "one byte before the offset is ignored", ["TTL-025"], "2026-09-05T23:30:00x+01:00", False),
    ("ignored_after_hour", "one byte after an hour alone is ignored", ["TTL-025"], "2026-09-05T23x+00:00", False),
    ("ignored_digit", "one extra digit before the offset is ignored", ["TTL-025"], "2026-09-05T23:30:005+00:00", False),
    ("ignored_colon", "a colon before the offset is ignored", ["TTL-025"], "2026-09-05T23:30:-01:00", False),
    ("ignored_lowercase_z", "a lowercase z before an offset is ignored", ["TTL-019", "TTL-025"], "2026-09-05T23:30z+01:00", False),
    ("ignored_nul", "a NUL before the offset is ignored", ["TTL-025"], "2026-09-05T23:30\u0000+00:00", False),
    ("non_ascii_before_offset", "a character outside ASCII before the offset is more than one byte", ["TTL-025"],
     "2026-09-05T23\u00e9+00:00", True),
    ("two_bytes_before_offset", "two bytes before the offset", ["TTL-025"], "2026-09-05T23:30:00xy+00:00", True),
    ("fraction_one_digit", "one fraction digit is tenths", ["TTL-025", "TTL-027"], "2026-09-05T23:30:00.5Z", False),
    ("fraction_three_digits", "three fraction digits are milliseconds", ["TTL-025", "TTL-027"], "2026-09-05T23:30:00.123Z", False),
    ("fraction_nine_digits", "digits past the sixth are cut, not rounded", ["TTL-025"], "2026-09-05T23:30:00.999999999Z", False),
    ("fraction_comma", "a comma starts the fraction", ["TTL-025"], "2026-09-05T23:30:00,25Z", False),
    ("fraction_after_colon", "a colon after the second starts the fraction", ["TTL-025"], "2026-09-05T23:30:00:5+00:00", False),
    ("fraction_basic", "two bytes after a basic second start the fraction", ["TTL-025"], "2026-09-05T23300056+00:00", False),
    ("fraction_of_hour", "a fraction after the hour is a fraction of a second", ["TTL-025"], "2026-09-05T23.5Z", False),
    ("fraction_of_minute", "a fraction after the minute is a fraction of a second", ["TTL-025"], "2026-09-05T23:30,25Z", False),
    ("fraction_empty", "a point and then the offset is ignored", ["TTL-025"], "2026-09-05T23:30:00.Z", False),
    ("fraction_tail_ignored", "after six fraction digits anything is ignored", ["TTL-025"],
     "2026-09-05T23:30:00.123456\u00e9xyz+00:00", False),
    ("fraction_short_tail", "fewer than six fraction bytes must all be digits", ["TTL-025"], "2026-09-05T23:30:00.12x+00:00", True),
    ("fraction_non_ascii_digit", "a fraction digit outside ASCII", ["TTL-025"], "2026-09-05T23:30:00.\u0661Z", True),
    ("hour_24", "hour 24", ["TTL-025"], "2026-09-05T24:00:00Z", True),
    ("minute_60", "minute 60", ["TTL-025"], "2026-09-05T23:60:00Z", True),
    ("leap_second", "second 60, a leap second, is refused", ["TTL-025", "TTL-002"], "2016-12-31T23:59:60Z", True),
    ("no_time", "a separator and then the offset", ["TTL-025"], "2026-09-05T+00:00", True),
    # TTL-026: the offset
    ("offset_hours", "an offset of hours only", ["TTL-026"], "2026-09-05T23:30:00+02", False),
    ("offset_basic", "an offset +HHMM", ["TTL-026"], "2026-09-05T23:30:00+0200", False),
    ("offset_negative", "a negative offset", ["TTL-026"], "2026-09-05T23:30:00-02:30", False),
    ("offset_seconds", "an offset with seconds", ["TTL-026", "TTL-027"], "2026-09-05T23:30:00+02:00:30", False),
    ("offset_seconds_basic", "an offset +HHMMSS", ["TTL-026"], "2026-09-05T23:30:00+020030", False),
    ("offset_fraction", "an offset with a fraction of a second", ["TTL-026", "TTL-027"],
     "2026-09-05T23:30:00-02:00:30.5", False),
    ("offset_fraction_of_hour", "a fraction after the offset's hours", ["TTL-026"], "2026-09-05T23:30:00+02,5", False),
    ("offset_fraction_basic", "two bytes after a basic offset second start its fraction", ["TTL-026"],
     "2026-09-05T23:30:00+02000050", False),
    ("offset_one_extra_digit", "one byte after a basic offset is left over", ["TTL-026"], "2026-09-05T23:30:00+0200005", True),
    ("offset_minute_60", "an offset minute of 60 is an hour", ["TTL-026"], "2026-09-05T23:30:00+00:60", False),
    ("offset_minute_99", "an offset minute of 99", ["TTL-026"], "2026-09-05T23:30:00+00:99", False),
    ("offset_almost_24_hours", "an offset just under 24 hours", ["TTL-026"], "2026-09-05T23:30:00-23:59:59.999999", False),
    ("offset_24_hours", "an offset of 24 hours", ["TTL-026"], "2026-09-05T23:30:00+24:00", True),
    ("offset_over_24_hours", "an offset of 23 hours and 99 minutes", ["TTL-026"], "2026-09-05T23:30:00+23:99", True),
    ("offset_negative_zero", "-00:00 is +00:00", ["TTL-026", "TTL-027"], "2026-09-05T23:30:00-00:00", False),
    ("offset_zero_with_fraction", "an offset of zero whole seconds is +00:00 whatever its fraction", ["TTL-026"],
     "2026-09-05T23:30:00-00:00:00.5", False),
    ("offset_one_digit", "an offset hour of one digit", ["TTL-026"], "2026-09-05T23:30:00+2", True),
    ("offset_three_digits", "an offset of three digits", ["TTL-026"], "2026-09-05T23:30:00+020", True),
    ("offset_mixed", "an offset HH:MM then SS without a colon", ["TTL-026"], "2026-09-05T23:30:00+02:0030", True),
    ("offset_trailing_colon", "a colon after the offset is left over", ["TTL-026"], "2026-09-05T23:30:00+02:", True),
    ("offset_trailing_space", "a space after the offset is left over", ["TTL-026"], "2026-09-05T23:30:00+02:00 ", True),
    ("offset_trailing_nul", "a NUL after the offset is accepted", ["TTL-026"], "2026-09-05T23:30:00+02\u0000", False),
    ("offset_fraction_tail", "text after an offset's six fraction digits is left over", ["TTL-026"],
     "2026-09-05T23:30:00+02:00:30.1234567x", True),
    ("offset_fraction_nul_tail", "a NUL and text after an offset's six fraction digits are accepted", ["TTL-026"],
     "2026-09-05T23:30:00+02:00:30.123456\u0000xyz", False),
    ("offset_non_ascii_digit", "an offset digit outside ASCII", ["TTL-026"], "2026-09-05T23:30:00+\u0660\u0662:00", True),
    # TTL-027: the start written back
    ("zero_fraction_left_out", "a fraction of zeros is not written", ["TTL-027"], "2026-09-05T23:30:00.000Z", False),
    ("zero_offset_fraction_left_out", "an offset fraction of zeros is not written", ["TTL-027"],
     "2026-09-05T23:30:00+01:00:00.000000", False),
    ("written_from_basic_week", "a basic week date with a comma fraction is written in the extended calendar form",
     ["TTL-021", "TTL-027"], "2026W366T2330,5-0230", False),
)


def start_cases():
    """The cases of ``start.json``."""
    return [_case(name, description, requirements, started_at, fails=fails)
            for name, description, requirements, started_at, fails in CASES]
