<#-- The frame of Tuber Market's e-mails: the green wordmark over a white card (inline styles: mail clients
     ignore style sheets). -->
<#macro mail>
<!DOCTYPE html>
<html lang="<#if locale?? && locale?is_hash>${(locale.language)!"en"}<#else>en</#if>">
<body style="margin:0;padding:0;background:#f0fdf4;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:#1c2420;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f0fdf4;padding:24px 12px;">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;">
<tr><td style="padding:0 4px 12px;font-size:24px;font-weight:800;letter-spacing:-0.02em;color:#15803d;">Tuber Market</td></tr>
<tr><td style="background:#ffffff;border:1px solid #e3e8e4;border-top:4px solid #15803d;border-radius:18px;padding:24px 20px;font-size:16px;line-height:1.5;">
<#nested>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
</#macro>
