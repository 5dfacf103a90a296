/**
 * Month and weekday names as people abbreviate them (English), as regular-expression
 * source: the one spelling list behind retain's date gate (`retain/dates.ts`) and recall's
 * "may this question name a time?" gate (`recall/timewindow.ts`). Use inside `\b...\b`,
 * case-insensitive.
 */
export const MONTH_NAME =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
export const WEEKDAY_NAME = "(?:sun|mon|tues?|wed|thu|thurs?|fri|sat|(?:sun|mon|tues|wednes|thurs|fri|satur)day)";
