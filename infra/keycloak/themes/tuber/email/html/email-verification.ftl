<#import "tuber-layout.ftl" as layout>
<@layout.mail>
<p style="margin:0 0 12px;"><#if (user.firstName)?has_content>${msg("tuberGreeting", user.firstName)}<#else>${msg("tuberGreetingNoName")}</#if></p>
<p style="margin:0 0 20px;">${msg("tuberVerifyIntro")}</p>
<p style="margin:0 0 20px;"><a href="${link}" style="display:inline-block;padding:12px 24px;border-radius:999px;background:#15803d;color:#ffffff;font-weight:600;text-decoration:none;">${msg("tuberVerifyButton")}</a></p>
<p style="margin:0 0 12px;color:#55605a;font-size:14px;">${msg("tuberVerifyExpiry", linkExpirationFormatter(linkExpiration))}</p>
<p style="margin:0;color:#55605a;font-size:14px;">${msg("tuberVerifyIgnore")}</p>
</@layout.mail>
