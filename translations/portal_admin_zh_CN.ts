<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/about.py" line="+76"/>
        <location line="+2"/>
        <source>Third-party notices</source>
        <translation>第三方声明</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This copy was not built with its third-party notices: they are written when the installers are built (packaging/build.py).</source>
        <translation>此副本构建时未附带第三方声明：第三方声明在构建安装程序时生成（packaging/build.py）。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>About System Portal Admin</source>
        <extracomment>&quot;&quot; while the key is read; None: it can be neither read nor made. Where the key is kept (``keys.KeyPlace``), once read.</extracomment>
        <translation>关于 System Portal Admin</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System Portal Admin</source>
        <translation>System Portal Admin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Version %1</source>
        <translation>版本 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Desktop administration for the System Portal, with a built-in sandbox server.</source>
        <translation>System Portal 桌面管理程序，内置沙箱服务器。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Licensed under the %1 (%2).</source>
        <translation>依据 %1（%2）授权。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Third-party notices…</source>
        <translation>第三方声明…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Qt %1 (PySide6 %2), Python %3</source>
        <translation>Qt %1（PySide6 %2），Python %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Qt and Python versions</source>
        <translation>Qt 和 Python 版本</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Evidence signing key: reading…</source>
        <translation>证据签名密钥：正在读取…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence signing key: none (it can be neither read nor made on this computer)</source>
        <translation>证据签名密钥：无（在这台计算机上既无法读取也无法创建）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Evidence signing key: %1</source>
        <translation>证据签名密钥：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Kept in the key file %1, readable by you only (this computer has no usable keyring).</source>
        <translation>保存在密钥文件 %1 中，只有您能读取（这台计算机没有可用的密钥环）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Kept in the system keyring.</source>
        <translation>保存在系统密钥环中。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Evidence signing key fingerprint</source>
        <translation>证据签名密钥指纹</translation>
    </message>
</context>
<context>
    <name>AccountColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_model.py" line="+28"/>
        <source>Email</source>
        <translation>邮箱</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Portal</source>
        <translation>门户</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Country</source>
        <translation>国家/地区</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>AccountFilters</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_filter_bar.py" line="+133"/>
        <source>&amp;Institution:</source>
        <translation>机构(&amp;I)：</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Portal:</source>
        <translation>门户(&amp;P)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A word of the name…</source>
        <translation>名称中的词…</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Account filters</source>
        <translation>账号筛选条件</translation>
    </message>
    <message>
        <location line="-131"/>
        <location line="+112"/>
        <source>Any portal</source>
        <extracomment>How long typing must pause before the list is queried again.</extracomment>
        <translation>所有门户</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+109"/>
        <source>Any status</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Clear every filter</source>
        <translation>清除所有筛选条件</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Clear filters</source>
        <translation>清除筛选</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>E&amp;mail:</source>
        <translation>邮箱(&amp;M)：</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Filter by email</source>
        <translation>按邮箱筛选</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Filter by institution id</source>
        <translation>按机构 ID 筛选</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Filter by name</source>
        <translation>按名称筛选</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by portal</source>
        <translation>按门户筛选</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by status</source>
        <translation>按状态筛选</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Institution id</source>
        <translation>机构 ID</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>S&amp;tatus:</source>
        <translation>状态(&amp;T)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Starts with…</source>
        <translation>开头为…</translation>
    </message>
</context>
<context>
    <name>AccountsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_text.py" line="+16"/>
        <source>Activate</source>
        <extracomment>Status actions in display order, with the button text and the confirm button text.</extracomment>
        <translation>启用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate account</source>
        <translation>启用账号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate the account %1? It can sign in again afterwards.</source>
        <translation>要启用账号 %1 吗？启用后该账号可以重新登录。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Suspend</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend account</source>
        <translation>暂停账号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend the account %1? It is signed out and cannot sign in until it is activated again.</source>
        <translation>要暂停账号 %1 吗？该账号将被强制退出，在重新启用前无法登录。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Deactivate</source>
        <translation>停用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate account</source>
        <translation>停用账号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate the account %1? It is signed out and cannot sign in until it is activated again.</source>
        <translation>要停用账号 %1 吗？该账号将被强制退出，在重新启用前无法登录。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The account %1 was activated.</source>
        <extracomment>What a status action did, said as a sentence naming the account.</extracomment>
        <translation>账号 %1 已激活。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The account %1 was suspended.</source>
        <translation>账号 %1 已暂停。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The account %1 was deactivated.</source>
        <translation>账号 %1 已停用。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The status of the account %1 was changed.</source>
        <translation>账号 %1 的状态已更改。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+404"/>
        <source>%1: %2 → %3</source>
        <translation>%1：%2 → %3</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+196"/>
        <source>&amp;Country:</source>
        <translation>国家/地区(&amp;C)：</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Phone:</source>
        <translation>电话(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+123"/>
        <source>&amp;Reason (optional):</source>
        <translation>原因（可选）(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+4"/>
        <source>&amp;Remark:</source>
        <translation>备注(&amp;R)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Time zone:</source>
        <translation>时区(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-69"/>
        <source>A password reset link was mailed to %1.</source>
        <translation>密码重置链接已发送至 %1。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+258"/>
        <source>Account</source>
        <translation>账号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+27"/>
        <source>Account being edited</source>
        <translation>正在编辑的账号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-39"/>
        <location line="+46"/>
        <source>Account details</source>
        <translation>账号详情</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Account id</source>
        <translation>账号 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="+196"/>
        <source>Account id to open</source>
        <translation>要打开的账号 ID</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Account id, e.g. ACC…</source>
        <translation>账号 ID，例如 ACC…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-42"/>
        <source>Account name</source>
        <translation>账号名称</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="+9"/>
        <source>Accounts</source>
        <translation>账号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+40"/>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+7"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-14"/>
        <source>Choose an account to see its details.</source>
        <translation>选择一个账号以查看详细信息。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy id</source>
        <translation>复制 ID</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Copy the account id</source>
        <translation>复制账号 ID</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Copy the account id to the clipboard</source>
        <translation>将账号 ID 复制到剪贴板</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-55"/>
        <source>Could not change the status of %1</source>
        <translation>无法更改 %1 的状态</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Could not reset the password of %1</source>
        <translation>无法重置 %1 的密码</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Could not save the account %1</source>
        <translation>无法保存账号 %1</translation>
    </message>
    <message>
        <location line="-48"/>
        <source>Country</source>
        <translation>国家/地区</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+15"/>
        <source>Country:</source>
        <translation>国家/地区：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Created:</source>
        <translation>创建时间：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-20"/>
        <source>Default country</source>
        <translation>默认国家/地区</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Default language</source>
        <translation>默认语言</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Default time zone</source>
        <translation>默认时区</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Edit account</source>
        <translation>编辑账号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+11"/>
        <source>Edit the account</source>
        <translation>编辑账号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+3"/>
        <source>Edit the account %1</source>
        <translation>编辑账号 %1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-2"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Email:</source>
        <translation>邮箱：</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Id:</source>
        <translation>ID：</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Institution:</source>
        <translation>机构：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-2"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-3"/>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-3"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-5"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>No account chosen</source>
        <translation>未选择账号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-24"/>
        <source>Nothing has changed.</source>
        <translation>没有任何更改。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="-4"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>There are no accounts yet.</source>
        <extracomment>Initial column widths (the person can resize; hidden columns keep the default). Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>还没有账号。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No accounts match these filters.</source>
        <translation>没有符合这些筛选条件的账号。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Open by id:</source>
        <translation>按 ID 打开(&amp;O)：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Open the account with this id</source>
        <translation>打开具有此 ID 的账号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+1"/>
        <source>Phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+35"/>
        <source>Phone number</source>
        <translation>电话号码</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-30"/>
        <source>Phone:</source>
        <translation>电话：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Portal:</source>
        <translation>门户：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+4"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Reason for the status change</source>
        <translation>状态更改原因</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+1"/>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+4"/>
        <source>Remark</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+2"/>
        <source>Remark:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-91"/>
        <source>Reset password</source>
        <translation>重置密码</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+19"/>
        <source>Reset password…</source>
        <translation>重置密码…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+108"/>
        <location line="+9"/>
        <source>Save changes</source>
        <translation>保存更改</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+30"/>
        <source>Save the changes</source>
        <translation>保存更改</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-7"/>
        <source>Save these changes to the account %1?</source>
        <translation>要将这些更改保存到账号 %1 吗？</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+3"/>
        <source>Send a password reset link</source>
        <translation>发送密码重置链接</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-108"/>
        <source>Send a password reset link to the account %1? It is mailed to %2.</source>
        <translation>要向账号 %1 发送密码重置链接吗？链接将发送至 %2。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Send reset link</source>
        <translation>发送重置链接</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+3"/>
        <source>Status change</source>
        <translation>状态更改</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-25"/>
        <source>Status:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="-28"/>
        <source>Status: %1 → %2</source>
        <extracomment>The server accepts a reason of at most this many characters.</extracomment>
        <translation>状态：%1 → %2</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+51"/>
        <source>The account %1 was saved.</source>
        <translation>账号 %1 已保存。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-71"/>
        <source>The name is required.</source>
        <extracomment>Field key -&gt; (client keyword, account attribute).</extracomment>
        <translation>名称为必填项。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+8"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>此操作将影响%1服务器“%2”。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+33"/>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+5"/>
        <source>Time zone:</source>
        <translation>时区：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+68"/>
        <source>Type to search, e.g. Japan or JP</source>
        <translation>输入以搜索，例如 China 或 CN</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Type to search, e.g. Tokyo or UTC+9</source>
        <translation>输入以搜索，例如 Shanghai 或 UTC+8</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Type to search; a code not in the list is sent as typed</source>
        <translation>输入以搜索；不在列表中的代码将按原样提交</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+4"/>
        <source>Updated:</source>
        <translation>更新时间：</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Why actions are unavailable</source>
        <translation>操作不可用的原因</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+11"/>
        <source>Why, for the audit trail</source>
        <translation>填写原因，用于审计记录</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-190"/>
        <source>You cannot change the status of your own account.</source>
        <extracomment>The account the detail shows (None: nothing chosen). ErrorInfo of a failure to show in the panel. A translated success text. Filter choices arrived: (portal pairs, status pairs). The panel: it keeps the tasks and knows what the signed-in account may do. The edit dialog while it is open (tests and screenshots look at it).</extracomment>
        <translation>不能更改自己账号的状态。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_text.py" line="+18"/>
        <source>“%1” &lt;%2&gt;</source>
        <translation>“%1” &lt;%2&gt;</translation>
    </message>
</context>
<context>
    <name>AdminErrors</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/common.py" line="+21"/>
        <source>The server refused: your role does not allow this action. Ask a workspace owner for the permission.</source>
        <extracomment>Clearer summaries for the codes these panels meet (per-panel overrides win).</extracomment>
        <translation>服务器拒绝了请求：您的角色不允许执行此操作。请向工作区所有者申请权限。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not found: the item does not exist (any more), or the id is wrong.</source>
        <translation>未找到：该项不存在（或已被删除），或 ID 有误。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+3"/>
        <source>The server did not accept the input. Check the fields and try again.</source>
        <translation>服务器未接受输入的内容。请检查各字段后重试。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your sign-in is no longer valid (code 4010). Sign in again.</source>
        <translation>您的登录已失效（代码 4010），请重新登录。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>You are not signed in. Sign in again.</source>
        <translation>您尚未登录，请重新登录。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not found (code 4040).</source>
        <translation>未找到（代码 4040）。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+33"/>
        <source>The server did not accept the portal (code 4000): a portal type and a domain without spaces are required; domain and remark have at most 255 characters each.</source>
        <extracomment>Domain and remark limits (section 8).</extracomment>
        <translation>服务器未接受该门户（代码 4000）：门户类型和域名为必填项，域名不能包含空格；域名和备注各不超过 255 个字符。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server did not accept the portal: a portal type and a domain without spaces are required; domain and remark have at most 255 characters each.</source>
        <translation>服务器未接受该门户：门户类型和域名为必填项，域名不能包含空格；域名和备注各不超过 255 个字符。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The institution was not found (code 4040). Check the institution id, or leave it empty to use your own institution.</source>
        <translation>未找到该机构（代码 4040）。请检查机构 ID，或留空以使用您自己的机构。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+28"/>
        <source>The server refused: the OWNER role is protected and can never be deleted.</source>
        <extracomment>The 409 answers of role deletion, explained.</extracomment>
        <translation>服务器拒绝了请求：OWNER 角色受保护，永远不能删除。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refused: the role still has members. Give them another role first, then delete it.</source>
        <translation>服务器拒绝了请求：该角色仍有成员。请先为他们分配其他角色，然后再删除。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The role does not exist any more: someone else deleted it.</source>
        <translation>该角色已不存在：已被其他人删除。</translation>
    </message>
</context>
<context>
    <name>BackupCodesDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/backup_codes.py" line="+205"/>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Backup codes</source>
        <translation>备用码</translation>
    </message>
    <message>
        <location line="-86"/>
        <source>Copied to the clipboard.</source>
        <translation>已复制到剪贴板。</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Copy the codes</source>
        <translation>复制备用码</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>Could not save the file: %1</source>
        <translation>无法保存文件：%1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Keep these codes somewhere safe. Each code signs you in once when you cannot use your other methods. They are shown only now: after you close this window they cannot be shown again. Your previous codes no longer work.</source>
        <translation>请将这些备用码妥善保存。无法使用其他验证方式时，每个备用码可用于登录一次。备用码仅在此时显示，关闭此窗口后将无法再次查看。您之前的备用码已失效。</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>New backup codes</source>
        <translation>新的备用码</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>Save backup codes</source>
        <translation>保存备用码</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Save the codes to a file</source>
        <translation>将备用码保存到文件</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Saved to %1 (readable by you only).</source>
        <translation>已保存到 %1（仅您本人可读取）。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="-98"/>
        <source>System Portal backup codes (each works once)</source>
        <extracomment>The codes being written (``save_to``, started by the file dialog).</extracomment>
        <translation>System Portal 备用码（每个只能使用一次）</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Text files (*.txt)</source>
        <translation>文本文件 (*.txt)</translation>
    </message>
</context>
<context>
    <name>BulkButton</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/menu.py" line="+49"/>
        <source>Bulk changes</source>
        <translation>批量更改</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change many rows at once</source>
        <translation>一次更改多行</translation>
    </message>
</context>
<context>
    <name>BulkDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+192"/>
        <source>Lists (*.csv *.txt);;All files (*)</source>
        <extracomment>The bulk windows open now, by job id (the Jobs panel shows a running one again). What a job run in this program changed, besides its area (``OperationRunner.publish``): the Jobs panel reads the job files again on it, and on no other topic. The actions each panel offers. &quot;accounts&quot; or &quot;invitations&quot;. The selected rows&apos; records (``Account`` or ``Invitation``). The account filter&apos;s query arguments (accounts), for &quot;all matching&quot;. How many rows match the filter, when known.</extracomment>
        <translation>列表 (*.csv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+293"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="-283"/>
        <source>Imported %1</source>
        <translation>已导入 %1</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Enter the new value.</source>
        <translation>请输入新值。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Planning…</source>
        <translation>正在制定计划…</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>This session is read-only: no bulk change can be planned.</source>
        <translation>此会话为只读：无法制定批量更改。</translation>
    </message>
    <message>
        <location line="+104"/>
        <source>This job is being run by another window or program.</source>
        <translation>此任务正由另一个窗口或程序运行。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 of %2: %3 done, %4 failed, %5 skipped, %6 unknown</source>
        <translation>%1 / %2：完成 %3，失败 %4，跳过 %5，结果未知 %6</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Waiting %1 s, then reading back %2 targets whose outcome is unknown (the server may still be applying them)</source>
        <translation>等待 %1 秒后重新读取 %2 个结果未知的目标（服务器可能仍在应用这些更改）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 per second, about %2 s left</source>
        <translation>每秒 %1 个，约剩 %2 秒</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+137"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="-97"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Bulk change: %1</source>
        <translation>批量更改：%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+136"/>
        <source>Suspend</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate</source>
        <translation>激活</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate</source>
        <translation>停用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Default language</source>
        <translation>默认语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>国家/地区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>备注</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Action:</source>
        <translation>操作(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New status:</source>
        <translation>新状态(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Field:</source>
        <translation>字段(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Value:</source>
        <translation>值(&amp;V)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="+411"/>
        <source>&amp;Reason:</source>
        <translation>原因(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Message:</source>
        <translation>留言(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Expires after (days):</source>
        <translation>有效天数(&amp;E)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>e.g. ja, Asia/Tokyo, JP</source>
        <translation>例如 ja、Asia/Tokyo、JP</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="+2"/>
        <source>Optional; kept with the change</source>
        <translation>可选；随更改一起保存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Targets:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+7"/>
        <source>The %1 selected rows</source>
        <translation>选中的 %1 行</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>All %1 accounts matching the current filter</source>
        <translation>符合当前筛选条件的全部 %1 个账户</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All accounts matching the current filter</source>
        <translation>符合当前筛选条件的全部账户</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Every pending invitation</source>
        <translation>所有待处理的邀请</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+2"/>
        <source>created at least this many days ago:</source>
        <translation>创建时间至少在这么多天前：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A list of emails or ids (paste it or import a CSV)</source>
        <translation>电子邮件或 ID 列表（粘贴或导入 CSV）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>One email or id per line, or CSV with an email or id column</source>
        <translation>每行一个电子邮件或 ID，或带有 email 或 id 列的 CSV</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Emails or ids</source>
        <translation>电子邮件或 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import a file…</source>
        <translation>导入文件(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+3"/>
        <source>&amp;Plan (dry run)</source>
        <translation>制定计划（试运行）(&amp;P)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+1"/>
        <location line="+122"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="-66"/>
        <source>&amp;Export the plan…</source>
        <translation>导出计划(&amp;E)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Requests at once:</source>
        <translation>同时请求数(&amp;R)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Back</source>
        <translation>返回(&amp;B)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+3"/>
        <source>&amp;Run on %1 targets</source>
        <translation>对 %1 个目标执行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+1"/>
        <source>The plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every target with what the change would do to it</source>
        <translation>每个目标以及更改将对其产生的影响</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Targets and their results</source>
        <translation>目标及其结果</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+9"/>
        <source>Nothing has been sent. %1 targets will change; skipped: %2</source>
        <translation>尚未发送任何内容。将更改 %1 个目标；跳过：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+2"/>
        <source>&amp;Cancel the job</source>
        <translation>取消任务(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save the result…</source>
        <translation>保存结果(&amp;S)…</translation>
    </message>
</context>
<context>
    <name>BulkPlan</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/plan_model.py" line="+26"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>变更前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New</source>
        <translation>新值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason or error</source>
        <translation>原因或错误</translation>
    </message>
</context>
<context>
    <name>BulkWords</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/words.py" line="+12"/>
        <source>The signed-in account itself</source>
        <translation>当前登录的账户本身</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already has the new value</source>
        <translation>已是新值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its current status does not allow this</source>
        <translation>当前状态不允许此操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Listed more than once</source>
        <translation>重复列出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already accepted, declined, expired or cancelled</source>
        <translation>已接受、已拒绝、已过期或已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A pending invitation exists</source>
        <translation>已有待处理的邀请</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Neither an email nor an id</source>
        <translation>既不是电子邮件也不是 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The expiry is not 1 to 365 whole days</source>
        <translation>有效期不是 1 到 365 的整天数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The file is not UTF-8 text.</source>
        <translation>该文件不是 UTF-8 文本。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file is too large (64 MiB at most).</source>
        <translation>文件过大（最大 64 MiB）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The list has more than 200,000 lines.</source>
        <translation>列表超过 200,000 行。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No column is named email or id.</source>
        <translation>没有名为 email 或 id 的列。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The CSV cannot be read (an unclosed quote?).</source>
        <translation>无法读取该 CSV（引号未闭合？）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The list names nothing.</source>
        <translation>列表为空。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Planned</source>
        <translation>已计划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Being sent</source>
        <translation>正在发送</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown outcome</source>
        <translation>结果未知</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Paused.</source>
        <translation>已暂停。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused: the server cannot be reached. Nothing is lost; resume when it is.</source>
        <translation>已暂停：无法连接服务器。不会丢失任何内容；恢复连接后请继续。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Paused: the sign-in has ended.</source>
        <translation>已暂停：登录已结束。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused: the program stopped the job.</source>
        <translation>已暂停：程序停止了该任务。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Change status</source>
        <translation>更改状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset passwords</source>
        <translation>重置密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set a field</source>
        <translation>设置字段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite</source>
        <translation>邀请</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel invitations</source>
        <translation>取消邀请</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
</context>
<context>
    <name>CampaignConfirm</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/confirmations.py" line="+23"/>
        <source>Items still undecided: %n. Sign off anyway?</source>
        <translation>仍未决定的项目：%n 个。仍要签署确认吗？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Signing off freezes the file: the undecided items stay undecided for good, shown as not reviewed in the evidence pack, and no one can decide them in this file. Every decision made is frozen as it is.</source>
        <translation>签署确认会冻结此文件：未决定的项目将永久保持未决定，在证据包中显示为“未审查”，任何人都无法再在此文件中对其作出决定。已作出的每个决定都按现状冻结。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Sign off with %n undecided</source>
        <translation>签署确认（%n 个未决定）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Every item is decided. Sign off?</source>
        <translation>所有项目均已决定。要签署确认吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing off freezes every decision of the file as it is: no one can change them in this file afterwards.</source>
        <translation>签署确认会按现状冻结此文件中的每个决定：之后任何人都无法在此文件中更改它们。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sign off</source>
        <translation>签署确认</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sign off “%1”</source>
        <translation>签署确认“%1”</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Signed-off Revokes not carried out: %n. Close the campaign anyway?</source>
        <translation>已签署确认但尚未执行的撤销：%n 个。仍要关闭审查活动吗？</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Close with %n not carried out</source>
        <translation>关闭（%n 个未执行）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Close the campaign?</source>
        <translation>要关闭审查活动吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the campaign</source>
        <translation>关闭审查活动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Closing takes a snapshot of the server, checks every decision against it and makes every decision final. Remediation is no longer possible from this campaign: a Revoke not carried out by then stays not done, and the closing check says so.</source>
        <translation>关闭时会对服务器拍摄快照，依据快照检查每个决定，并使每个决定成为最终结果。之后无法再从此审查活动进行整改：届时尚未执行的撤销将保持未完成，关闭时检查会注明这一点。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Close “%1”</source>
        <translation>关闭“%1”</translation>
    </message>
</context>
<context>
    <name>CampaignCreate</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/create_dialog.py" line="+116"/>
        <source>There is no snapshot yet: take one in Snapshots first.</source>
        <translation>还没有快照：请先在“快照”中获取一个。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Give the campaign a name.</source>
        <translation>请为审查活动命名。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>New access-review campaign</source>
        <translation>新建访问审查活动</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Snapshot:</source>
        <translation>快照(&amp;S)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Due:</source>
        <translation>截止日期(&amp;D)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Revoke by:</source>
        <translation>撤销方式(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;File:</source>
        <translation>文件(&amp;F)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Suspending the account</source>
        <translation>暂停账户</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Deactivating the account</source>
        <translation>停用账号</translation>
    </message>
</context>
<context>
    <name>CampaignIdentity</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/identity.py" line="+52"/>
        <source>No key: this computer has no usable keyring to decide with.</source>
        <translation>没有密钥：此计算机没有可用于作出决定的密钥环。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading this installation&apos;s key…</source>
        <translation>正在读取本安装的密钥…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (signed in), with this installation&apos;s key %2</source>
        <translation>%1（已登录），使用本安装的密钥 %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This installation&apos;s key %1 (not signed in)</source>
        <translation>本安装的密钥 %1（未登录）</translation>
    </message>
</context>
<context>
    <name>CampaignRemediation</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediation_dialog.py" line="+45"/>
        <source>Reviewer</source>
        <translation>审查人</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust</source>
        <translation>信任</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed in as</source>
        <translation>登录身份</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>Remediate “%1”</source>
        <extracomment>Plan the remediation (every signer trusted). The trusted keys changed: check the sign-offs again.</extracomment>
        <translation>整改“%1”</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Nothing in this campaign is signed off: there is nothing to remediate.</source>
        <translation>此审查活动中没有任何签署确认：没有可整改的内容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign changed since it was signed off: it is not remediated. Verify names what changed.</source>
        <translation>审查活动在签署确认后被更改：不进行整改。“验证”会指出更改之处。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Remediation is refused until every signer&apos;s key is trusted here; not trusted: %n. Compare each fingerprint with the reviewer&apos;s by another channel (in person or by telephone), then trust the key.</source>
        <translation>在此处信任每位签署人的密钥之前，拒绝整改；未受信任：%n 个。请通过其他渠道（当面或电话）将每个指纹与审查人的指纹比对，然后信任该密钥。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A sign-off was made by an earlier version of the program and does not cover the revocation action: the reviewer signs off again with this version.</source>
        <translation>某个签署确认由较早版本的程序作出，未涵盖撤销操作：请审查人用此版本重新签署确认。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Separation of duties: you are one of the reviewers of what this remediation carries out. Another administrator should run it.</source>
        <translation>职责分离：您是此次整改所执行内容的审查人之一。应由另一位管理员执行。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>The signed-off Revokes are carried out as a bulk job, planned from each account&apos;s state now. Check who signed off first: compare each key&apos;s fingerprint with the one the reviewer gave you by another channel.</source>
        <translation>已签署确认的撤销将作为批量作业执行，并按每个账户的当前状态规划。请先核对签署人：将每个密钥的指纹与审查人通过其他渠道告知您的指纹进行比对。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sign-offs</source>
        <translation>签署确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the fingerprint</source>
        <translation>复制指纹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Key &amp;fingerprint:</source>
        <translation>密钥指纹(&amp;F)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Trust this key…</source>
        <translation>信任此密钥(&amp;T)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Trusted &amp;keys…</source>
        <translation>受信任的密钥(&amp;K)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Plan the remediation</source>
        <translation>规划整改(&amp;P)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Separation of duties</source>
        <translation>职责分离</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why remediation is refused</source>
        <translation>拒绝整改的原因</translation>
    </message>
</context>
<context>
    <name>CampaignSigners</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/signers.py" line="+17"/>
        <source>This installation&apos;s key</source>
        <translation>本安装的密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trusted as “%1”</source>
        <translation>已作为“%1”受信任</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The key given for this check</source>
        <translation>为此次检查指定的密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not trusted by this installation</source>
        <translation>本安装不信任</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 decided %2 of these Revokes with this installation&apos;s key.</source>
        <translation>%1 使用本安装的密钥作出了其中 %2 个撤销决定。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 decided %2 of these Revokes as your server account.</source>
        <translation>%1 以您的服务器账户作出了其中 %2 个撤销决定。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Signed items name sign-off %1, which this file does not have: they count as signed by nobody.</source>
        <extracomment>What a verification found, by the engine&apos;s code (``%1``, ``%2``: its parameters).</extracomment>
        <translation>已签署的项目指向签署确认 %1，但此文件中没有该签署确认：这些项目视为无人签署。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>decided by its own account: %1</source>
        <translation>由其本人账户决定：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the sign-off by %1 of %2 does not verify: it was changed</source>
        <translation>%1 于 %2 的签署确认无法验证：已被更改</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the sign-off by %1 was made with another key (%2)</source>
        <translation>%1 的签署确认使用了另一个密钥（%2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>changed: %1</source>
        <translation>已更改：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed: %1</source>
        <translation>已删除：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added: %1</source>
        <translation>已添加：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its decision in the queue is not the history&apos;s: %1</source>
        <translation>队列中的决定与历史记录不一致：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>… and %1 more items</source>
        <translation>……以及另外 %1 个项目</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 (account %2)</source>
        <translation>%1（账户 %2）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not signed in</source>
        <translation>未登录</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (%2), key %3: %4</source>
        <translation>%1（%2），密钥 %3：%4</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 signed off with this installation&apos;s key.</source>
        <translation>%1 使用本安装的密钥签署确认。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 signed off as your server account.</source>
        <translation>%1 以您的服务器账户签署确认。</translation>
    </message>
</context>
<context>
    <name>Campaigns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+16"/>
        <source>All items</source>
        <translation>全部项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undecided</source>
        <translation>未决定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flagged</source>
        <translation>已标记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept</source>
        <translation>已保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoked</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t know</source>
        <translation>不确定</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+24"/>
        <source>%1 carries triggers, views, tables or indexes this program never puts in a campaign. It was refused: they could change decisions behind your back. Ask for the file again from its owner.</source>
        <translation>%1 含有本程序从不放入审查活动的触发器、视图、表或索引，已被拒绝：它们可能在您不知情时更改决定。请向文件所有者重新索取该文件。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is not laid out as this program&apos;s campaign files are: a table or an index is missing or defined otherwise. It was refused. Ask for the file again from its owner.</source>
        <translation>%1 的结构与本程序的审查活动文件不同：缺少某个表或索引，或其定义不同。已被拒绝。请向文件所有者重新索取该文件。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is damaged: the database&apos;s own check or its settings fail. Ask for the file again from its owner.</source>
        <translation>%1 已损坏：数据库自身的检查或其设置未通过。请向文件所有者重新索取该文件。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reading %1 took too long: it was given up. A campaign file opens in moments; this one may be built to hold the program.</source>
        <translation>读取 %1 耗时过长，已放弃。审查活动文件通常片刻即可打开；此文件可能是为拖住本程序而构造的。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is your own account: another reviewer decides it. Nothing was recorded.</source>
        <extracomment>A decision refused (``%1``: the item&apos;s name).</extracomment>
        <translation>%1 是您自己的账户：须由另一位审查人决定。未记录任何内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is signed off: its decision is frozen. Nothing was recorded.</source>
        <translation>%1 已签署确认：其决定已冻结。未记录任何内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The campaign is closed: decisions are final. Nothing was recorded.</source>
        <translation>审查活动已关闭：决定为最终结果。未记录任何内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not in this campaign.</source>
        <translation>%1 不在此审查活动中。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign is already signed off with another key.</source>
        <translation>此审查活动已使用另一个密钥签署确认。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign refused it: %1</source>
        <translation>审查活动拒绝了此操作：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A sign-off is by a key this installation does not trust. Compare its fingerprint with the reviewer&apos;s by another channel, then trust the key (Remediate… lists the signers).</source>
        <translation>某个签署确认所用的密钥不受本安装信任。请通过其他渠道将其指纹与审查人的指纹比对，然后信任该密钥（“整改…”会列出签署人）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A sign-off was made by an earlier version of the program and does not cover the revocation action: the reviewer signs off again with this version.</source>
        <translation>某个签署确认由较早版本的程序作出，未涵盖撤销操作：请审查人用此版本重新签署确认。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>More items are undecided than when you were asked: nothing was signed. Sign off again to be asked anew.</source>
        <translation>未决定的项目比询问您时更多：未签署任何内容。请再次签署确认以重新询问。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This campaign&apos;s scope was taken on another server (%1) than the one you are signed in to (%2): nothing was read or planned. Sign in to the campaign&apos;s server to remediate it.</source>
        <translation>此审查活动的范围取自另一台服务器（%1），而非您当前登录的服务器（%2）：未读取或规划任何内容。请登录该审查活动的服务器后再整改。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>An item was decided by the reviewer&apos;s own account: another reviewer decides it. Nothing was signed.</source>
        <translation>有项目由审查者本人的账户做出决定：应由另一位审查者决定。未签署任何内容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An item named is not in this campaign.</source>
        <translation>所指定的项目不在此审查活动中。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file is part of another campaign: nothing of it was used.</source>
        <translation>该文件属于另一个审查活动：未使用其中任何内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>An item is decided differently in the two files: nothing of the file was merged.</source>
        <translation>有项目在两个文件中的决定不同：未合并该文件的任何内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signed-off Revokes are not carried out yet: closing would leave them for good.</source>
        <translation>已签署确认的撤销尚未执行：关闭后将永远不再执行。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A campaign needs a name.</source>
        <extracomment>Why an input was refused (BAD_INPUT), by the engine&apos;s reason (``%1``: its parameter).</extracomment>
        <translation>审查活动需要名称。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a date (YYYY-MM-DD).</source>
        <translation>%1 不是日期（YYYY-MM-DD）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A revocation suspends or deactivates the account.</source>
        <translation>撤销方式为暂停或停用账户。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The days after which an account counts as not updated must be at least 1.</source>
        <translation>账户被视为未更新的天数至少为 1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The snapshot %1 cannot be read: take a new one.</source>
        <translation>无法读取快照 %1：请重新拍摄一个。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 exists already: a campaign file is never overwritten. Choose another.</source>
        <translation>%1 已存在：审查活动文件从不被覆盖。请另选一个。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The earlier file %1 is neither a snapshot nor a campaign that can be read.</source>
        <translation>之前的文件 %1 既不是可读取的快照，也不是可读取的审查活动。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not a decision: Keep, Revoke or Don&apos;t know.</source>
        <translation>%1 不是决定：保留、撤销或不知道。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A justification has at most %1 characters.</source>
        <translation>理由最多 %1 个字符。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A reviewer&apos;s name is one line of text (an e-mail address, say).</source>
        <translation>审查者姓名为一行文本（例如电子邮件地址）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server gave an account id or e-mail address that is not one line.</source>
        <translation>服务器给出的账户 ID 或电子邮件地址不是一行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The campaign has no items to sign off.</source>
        <translation>审查活动没有可签署确认的项目。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The closing snapshot %1 cannot be read.</source>
        <translation>无法读取结束快照 %1。</translation>
    </message>
    <message>
        <location line="-123"/>
        <source>The file %1 does not exist.</source>
        <extracomment>A file that cannot be opened as a campaign (``%1``: the file&apos;s name).</extracomment>
        <translation>文件 %1 不存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a campaign file, or it is damaged.</source>
        <translation>%1 不是审查活动文件，或已损坏。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was made by a newer version of the program.</source>
        <translation>%1 由更新版本的程序创建。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+23"/>
        <source>Revoked and done</source>
        <translation>已撤销并完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoked, not done</source>
        <translation>已撤销，未完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept, changed meanwhile</source>
        <translation>已保留，期间有变更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Appeared after the scope</source>
        <translation>范围之后出现</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+130"/>
        <source>A justification is required to revoke.</source>
        <translation>撤销需要填写理由。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A justification is required for Don&apos;t know.</source>
        <translation>“不确定”需要填写理由。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A justification is required to keep a flagged item.</source>
        <translation>保留已标记的项目需要填写理由。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+248"/>
        <source>The campaign cannot be read now.</source>
        <extracomment>Who reviews: this installation&apos;s key and the signed-in account (``identity.py``). This computer has no usable keyring: nobody can decide here. The question asked before a step (sign off, close) while it shows. Decisions are written by one thread of their own (its own connection to the file): the fsync of each transaction never holds the loop; one decision at a time.</extracomment>
        <translation>现在无法读取此审查活动。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/open_step.py" line="+31"/>
        <source>Campaigns (*.review);;All files (*)</source>
        <extracomment>Seconds the engine&apos;s checks of a file may take when the panel opens it (a 100,000-item file takes well under one); past them, and a few more, the panel gives up waiting.</extracomment>
        <translation>审查活动 (*.review);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>This file cannot be used as a campaign.</source>
        <translation>此文件不能用作审查活动。</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>The campaign could not be created.</source>
        <translation>无法创建审查活动。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+43"/>
        <location line="+39"/>
        <source>Any flag</source>
        <extracomment>A filter changed (the text after a pause of typing).</extracomment>
        <translation>任意标记</translation>
    </message>
    <message>
        <location line="-35"/>
        <location line="+37"/>
        <source>Any portal</source>
        <translation>任意门户</translation>
    </message>
    <message>
        <location line="-33"/>
        <location line="+36"/>
        <source>Any institution</source>
        <translation>任意机构</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+123"/>
        <source>The decision was refused.</source>
        <translation>决定被拒绝。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_view.py" line="+130"/>
        <source>Every item the filter shows is decided.</source>
        <extracomment>What each key of the queue decides. The current row or the selection moved (once per turn of the loop). K, R or D pressed in the queue: the :class:`Decision`. J pressed in the queue.</extracomment>
        <translation>筛选显示的所有项目均已决定。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 items selected: one decision and one justification for all.</source>
        <translation>已选择 %1 个项目：对全部项目使用同一决定和同一理由。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Your own account: another reviewer decides it.</source>
        <translation>您自己的账户：须由另一位审查人决定。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 by %2 on %3: %4</source>
        <translation>%1，由 %2 于 %3 决定：%4</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/decision_form.py" line="+85"/>
        <source>A justification is required for Revoke, for Don&apos;t know, and for Keep on a flagged item.</source>
        <extracomment>Keep, Revoke or Don&apos;t know clicked: the :class:`Decision`. Next undecided clicked.</extracomment>
        <translation>撤销、不确定以及保留已标记的项目都需要填写理由。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A justification is required for Revoke and for Don&apos;t know.</source>
        <translation>撤销和不确定需要填写理由。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/progress_line.py" line="+19"/>
        <source>%1 of %2 decided: %3 kept, %4 revoked, %5 don&apos;t know.</source>
        <translation>已决定 %1 / %2：保留 %3，撤销 %4，不确定 %5。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>By reviewer: %1.</source>
        <translation>按审查人：%1。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Due %1. Closed.</source>
        <translation>截止 %1。已关闭。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Due %1: overdue, %2 items late.</source>
        <translation>截止 %1：已逾期，%2 个项目逾期。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Due %1.</source>
        <translation>截止 %1。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+39"/>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="-96"/>
        <source>The campaign is closed: decisions are final.</source>
        <extracomment>A step of the campaign (sign off, remediate, close) refused.</extracomment>
        <translation>审查活动已关闭：决定为最终结果。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signed off: the decisions are frozen.</source>
        <translation>已签署确认：决定已冻结。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Sign in to do this: it reads the server.</source>
        <translation>请登录后再执行：此操作需要读取服务器。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+31"/>
        <source>The campaign was not signed off.</source>
        <translation>审查活动未签署确认。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Signed off by %1: %2 items, key %3. Give this fingerprint to the administrator by another channel.</source>
        <translation>由 %1 签署确认：%2 个项目，密钥 %3。请通过其他渠道将此指纹告知管理员。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediate_step.py" line="+54"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+24"/>
        <source>The sign-offs were not checked.</source>
        <translation>未检查签署确认。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+4"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+6"/>
        <source>Nothing in this campaign is signed off yet.</source>
        <translation>此审查活动尚无任何签署确认。</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+20"/>
        <source>The campaign changed since it was signed off.</source>
        <translation>审查活动在签署确认后被更改。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediate_step.py" line="+17"/>
        <source>Nothing was remediated.</source>
        <translation>未执行任何整改。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>You reviewed this campaign.</source>
        <translation>您审查过此活动。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No signed-off Revoke to carry out.</source>
        <translation>没有需要执行的已签署确认的撤销。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+43"/>
        <source>The campaign was not closed.</source>
        <translation>审查活动未关闭。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Closed. Revoked and done: %1; not done: %2; kept, changed meanwhile: %3; appeared after the scope: %4.</source>
        <translation>已关闭。已撤销并完成：%1；未完成：%2；已保留但期间有变更：%3；范围之后出现：%4。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+63"/>
        <source>Open a campaign file…</source>
        <translation>打开审查活动文件…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New campaign from a snapshot…</source>
        <translation>从快照新建审查活动…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No campaign open</source>
        <translation>未打开审查活动</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="-15"/>
        <source>The sign-offs verify, but a signer&apos;s key is not trusted by this installation: remediation is refused until it is.</source>
        <translation>签署确认验证通过，但本安装不信任某位签署人的密钥：在信任之前拒绝整改。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The sign-offs verify:
%1</source>
        <translation>签署确认验证通过：
%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+3"/>
        <source>Reviewer:</source>
        <translation>审查人：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/decision_form.py" line="+11"/>
        <source>&amp;Justification:</source>
        <translation>理由(&amp;J)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why (required for Revoke, Don&apos;t know, and Keep on a flagged item)</source>
        <translation>原因（撤销、不确定以及保留已标记项目时必填）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Keep</source>
        <translation>保留(&amp;K)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep the access (K in the queue)</source>
        <translation>保留访问权限（在队列中按 K）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Revoke</source>
        <translation>撤销(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Revoke the access (R in the queue)</source>
        <translation>撤销访问权限（在队列中按 R）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Don&apos;t know</source>
        <translation>不确定(&amp;D)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Someone else must decide (D in the queue)</source>
        <translation>须由其他人决定（在队列中按 D）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Next undecided</source>
        <translation>下一个未决定(&amp;N)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>N in the queue; J moves to the justification, Esc back</source>
        <translation>在队列中按 N；按 J 转到理由，按 Esc 返回</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+3"/>
        <source>Sign off…</source>
        <translation>签署确认…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remediate…</source>
        <translation>整改…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the campaign</source>
        <translation>关闭审查活动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>证据包…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="-13"/>
        <source>Search e-mail, name or id</source>
        <translation>搜索电子邮件、名称或 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="-46"/>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State at closing</source>
        <translation>关闭时状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_view.py" line="+12"/>
        <source>Review queue</source>
        <translation>审查队列</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+17"/>
        <source>Show items</source>
        <translation>显示的项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter by flag</source>
        <translation>按标记筛选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter by portal</source>
        <translation>按门户筛选</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by institution</source>
        <translation>按机构筛选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search the queue</source>
        <translation>搜索队列</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+3"/>
        <source>Closing check</source>
        <translation>关闭时检查</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+4"/>
        <source>Campaigns</source>
        <translation>审查活动</translation>
    </message>
</context>
<context>
    <name>CampaignsTour</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/tour.py" line="+40"/>
        <source>Q4 access review</source>
        <extracomment>Turns of 20 ms a stop waits for its question to show (30 s).</extracomment>
        <translation>第四季度访问审查</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Still on the support team</source>
        <translation>仍在支持团队</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Left the company in October</source>
        <translation>已于十月离职</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Contractor: ask the project lead</source>
        <translation>外包人员：请询问项目负责人</translation>
    </message>
</context>
<context>
    <name>ChangePassword</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/change_password.py" line="+41"/>
        <source>Enter your current password.</source>
        <translation>请输入当前密码。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new password must differ from the current one.</source>
        <translation>新密码不能与当前密码相同。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Your password was changed.</source>
        <translation>密码已修改。</translation>
    </message>
    <message>
        <location line="+75"/>
        <location line="+24"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="-15"/>
        <location line="+13"/>
        <source>Change password</source>
        <translation>修改密码</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Change your password</source>
        <translation>修改您的密码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enter your current password, then the new one twice.</source>
        <translation>请输入当前密码，然后输入两次新密码。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Current password:</source>
        <translation>当前密码(&amp;C)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;New password:</source>
        <translation>新密码(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repeat it:</source>
        <translation>确认新密码(&amp;R)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Current password</source>
        <translation>当前密码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New password</source>
        <translation>新密码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Repeat the new password</source>
        <translation>再次输入新密码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Change the password</source>
        <translation>修改密码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Close this dialog</source>
        <translation>关闭此对话框</translation>
    </message>
</context>
<context>
    <name>ChannelColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channels_model.py" line="+44"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Delivers via</source>
        <translation>发送方式</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Institution</source>
        <translation>机构</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Active</source>
        <translation>已启用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>ChannelDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channel_dialog.py" line="+308"/>
        <source>&amp;Category:</source>
        <translation>类别(&amp;C)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Description:</source>
        <translation>描述(&amp;D)：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>&amp;Institution:</source>
        <translation>机构(&amp;I)：</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Ask the server to check the mail-server settings</source>
        <translation>请服务器检查邮件服务器设置</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Checks the mail-server settings with the server, then saves</source>
        <translation>先由服务器检查邮件服务器设置，然后保存</translation>
    </message>
    <message>
        <location line="-147"/>
        <source>Choose a category.</source>
        <translation>请选择类别。</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>Default channel</source>
        <translation>默认渠道</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Default channel of its category</source>
        <translation>该类别的默认渠道</translation>
    </message>
    <message>
        <location line="-124"/>
        <location line="+111"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Edit channel “%1”</source>
        <translation>编辑渠道“%1”</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Input problems</source>
        <translation>输入问题</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>Institution</source>
        <translation>机构</translation>
    </message>
    <message>
        <location line="-117"/>
        <location line="+115"/>
        <source>Name</source>
        <extracomment>(protocol, keyword arguments of the client&apos;s validate operation)</extracomment>
        <translation>名称</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>New notification channel</source>
        <translation>新建通知渠道</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>S&amp;tatus:</source>
        <translation>状态(&amp;T)：</translation>
    </message>
    <message>
        <location line="+37"/>
        <location line="+1"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Server check</source>
        <translation>服务器检查</translation>
    </message>
    <message>
        <location line="-25"/>
        <location line="+2"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Your institution</source>
        <translation>您的机构</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>✔ %1 check passed: %2</source>
        <translation>✔ %1 检查通过：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>✘ %1 check failed: %2</source>
        <translation>✘ %1 检查失败：%2</translation>
    </message>
</context>
<context>
    <name>ChannelSettings</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/settings_forms.py" line="+239"/>
        <source>&amp;From address:</source>
        <translation>发件人地址(&amp;F)：</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>&amp;Host:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Port:</source>
        <translation>端口(&amp;P)：</translation>
    </message>
    <message>
        <location line="+168"/>
        <source>&amp;Provider:</source>
        <translation>服务商(&amp;P)：</translation>
    </message>
    <message>
        <location line="-164"/>
        <source>&amp;Security:</source>
        <translation>安全性(&amp;S)：</translation>
    </message>
    <message>
        <location line="+224"/>
        <source>&amp;URL:</source>
        <translation>URL(&amp;U)：</translation>
    </message>
    <message>
        <location line="-220"/>
        <source>&amp;Username:</source>
        <translation>用户名(&amp;U)：</translation>
    </message>
    <message>
        <location line="+161"/>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+19"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location line="-154"/>
        <source>From &amp;name:</source>
        <translation>发件人名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="-38"/>
        <location line="+35"/>
        <source>From address</source>
        <translation>发件人地址</translation>
    </message>
    <message>
        <location line="-30"/>
        <location line="+34"/>
        <source>From name</source>
        <translation>发件人名称</translation>
    </message>
    <message>
        <location line="-54"/>
        <location line="+30"/>
        <source>Host</source>
        <extracomment>The usual port of each security mode, for SMTP and for IMAP.</extracomment>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>IMAP</source>
        <translation>IMAP</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Incoming mail (IMAP)</source>
        <translation>收件服务器（IMAP）</translation>
    </message>
    <message>
        <location line="-62"/>
        <source>None (unencrypted)</source>
        <translation>无（不加密）</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Outgoing mail (SMTP)</source>
        <translation>发件服务器（SMTP）</translation>
    </message>
    <message>
        <location line="-89"/>
        <source>Pass&amp;word:</source>
        <translation>密码(&amp;W)：</translation>
    </message>
    <message>
        <location line="-36"/>
        <location line="+37"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location line="+150"/>
        <location line="+22"/>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location line="-148"/>
        <source>SMTP</source>
        <translation>SMTP</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>STARTTLS (upgrade to encryption)</source>
        <translation>STARTTLS（升级为加密连接）</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Security</source>
        <translation>安全性</translation>
    </message>
    <message>
        <location line="+165"/>
        <source>Sender &amp;id:</source>
        <translation>发送方 ID(&amp;I)：</translation>
    </message>
    <message>
        <location line="-12"/>
        <location line="+17"/>
        <source>Sender id</source>
        <translation>发送方 ID</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings (JSON)</source>
        <translation>设置（JSON）</translation>
    </message>
    <message>
        <location line="-49"/>
        <source>Signing &amp;secret:</source>
        <translation>签名密钥(&amp;S)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signing secret</source>
        <translation>签名密钥</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Stored secrets show as %1; leave them so to keep them.</source>
        <translation>已保存的密钥显示为 %1；保持不变即可保留。</translation>
    </message>
    <message>
        <location line="-244"/>
        <source>TLS (encrypted from the start)</source>
        <translation>TLS（全程加密）</translation>
    </message>
    <message>
        <location line="+180"/>
        <location line="+14"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="-125"/>
        <source>Use incoming mail (IMAP)</source>
        <translation>使用收件服务器（IMAP）</translation>
    </message>
    <message>
        <location line="-137"/>
        <location line="+39"/>
        <source>Username</source>
        <translation>用户名</translation>
    </message>
</context>
<context>
    <name>ChannelState</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+32"/>
        <source>Secure Channel: none</source>
        <translation>安全通道：无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel: established</source>
        <translation>安全通道：已建立</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel: failed</source>
        <translation>安全通道：失败</translation>
    </message>
</context>
<context>
    <name>ChannelTypeColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/types_model.py" line="+25"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Display order</source>
        <translation>显示顺序</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enabled</source>
        <translation>已启用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Icon</source>
        <translation>图标</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>ChannelTypeDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/type_dialog.py" line="+210"/>
        <source>&amp;Code:</source>
        <translation>代码(&amp;C)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Description:</source>
        <translation>描述(&amp;D)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Icon URL:</source>
        <translation>图标 URL(&amp;I)：</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+76"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Display &amp;order:</source>
        <translation>显示顺序(&amp;O)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Display order</source>
        <translation>显示顺序</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>E&amp;xtra settings (JSON):</source>
        <translation>其他设置（JSON）(&amp;X)：</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Edit channel type %1</source>
        <translation>编辑渠道类型 %1</translation>
    </message>
    <message>
        <location line="-53"/>
        <location line="+71"/>
        <source>Extra settings</source>
        <translation>其他设置</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+73"/>
        <source>Icon URL</source>
        <translation>图标 URL</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Input problems</source>
        <translation>输入问题</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+80"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>New channel type</source>
        <translation>新建渠道类型</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Optional, for example {&quot;retries&quot;: 3}</source>
        <translation>可选，例如 {&quot;retries&quot;: 3}</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+1"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>e.g. TEAMS_CHAT</source>
        <translation>例如 TEAMS_CHAT</translation>
    </message>
</context>
<context>
    <name>ChannelTypesPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/types_panel.py" line="+191"/>
        <source>&amp;Code:</source>
        <translation>代码(&amp;C)：</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>&amp;New…</source>
        <translation>新建(&amp;N)…</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>&amp;Status:</source>
        <translation>状态(&amp;S)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Any code</source>
        <translation>所有代码</translation>
    </message>
    <message>
        <location line="-73"/>
        <location line="+82"/>
        <source>Any status</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Ena&amp;bled only</source>
        <translation>仅已启用(&amp;B)</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Could not create the channel type</source>
        <translation>无法创建渠道类型</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>Could not delete the channel type</source>
        <translation>无法删除渠道类型</translation>
    </message>
    <message>
        <location line="-51"/>
        <source>Could not disable the channel type</source>
        <translation>无法禁用渠道类型</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Could not enable the channel type</source>
        <translation>无法启用渠道类型</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>Could not save the channel type</source>
        <translation>无法保存渠道类型</translation>
    </message>
    <message>
        <location line="-117"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+195"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Delete channel type</source>
        <translation>删除渠道类型</translation>
    </message>
    <message>
        <location line="-130"/>
        <source>Delete the channel type</source>
        <translation>删除渠道类型</translation>
    </message>
    <message>
        <location line="+132"/>
        <source>Delete the channel type “%1” (%2)? This cannot be undone.</source>
        <translation>要删除渠道类型“%1”（%2）吗？此操作无法撤消。</translation>
    </message>
    <message>
        <location line="-198"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Disable</source>
        <translation>禁用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Disable the channel type</source>
        <translation>禁用渠道类型</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>Display order</source>
        <translation>显示顺序</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Edit the channel type</source>
        <translation>编辑渠道类型</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Enable</source>
        <translation>启用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Enable the channel type</source>
        <translation>启用渠道类型</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Enabled only</source>
        <translation>仅已启用</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>Extra settings</source>
        <translation>其他设置</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Filter by code</source>
        <translation>按代码筛选</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by status</source>
        <translation>按状态筛选</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Icon URL</source>
        <translation>图标 URL</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>New channel type</source>
        <translation>新建渠道类型</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>ChannelsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channels_panel.py" line="+236"/>
        <source>&amp;Active only</source>
        <translation>仅已启用(&amp;A)</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>&amp;Category:</source>
        <translation>类别(&amp;C)：</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>&amp;Institution:</source>
        <translation>机构(&amp;I)：</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>&amp;New…</source>
        <translation>新建(&amp;N)…</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>&amp;Status:</source>
        <translation>状态(&amp;S)：</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Activate</source>
        <translation>启用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Activate the channel</source>
        <translation>启用渠道</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Active only</source>
        <translation>仅已启用</translation>
    </message>
    <message>
        <location line="-99"/>
        <location line="+91"/>
        <source>Any category</source>
        <translation>所有类别</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Any institution id</source>
        <translation>所有机构 ID</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+88"/>
        <source>Any status</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <location line="-65"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location line="+273"/>
        <source>Could not activate the channel</source>
        <translation>无法启用渠道</translation>
    </message>
    <message>
        <location line="-85"/>
        <source>Could not check the %1 settings</source>
        <translation>无法检查 %1 设置</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Could not create the channel</source>
        <translation>无法创建渠道</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Could not deactivate the channel</source>
        <translation>无法停用渠道</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Could not delete the channel</source>
        <translation>无法删除渠道</translation>
    </message>
    <message>
        <location line="-192"/>
        <source>Could not load the categories</source>
        <extracomment>Categories a new channel may use: the enabled channel types.</extracomment>
        <translation>无法加载类别</translation>
    </message>
    <message>
        <location line="+116"/>
        <source>Could not save the channel</source>
        <translation>无法保存渠道</translation>
    </message>
    <message>
        <location line="-225"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Deactivate</source>
        <translation>停用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Deactivate the channel</source>
        <translation>停用渠道</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location line="+299"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Delete channel</source>
        <translation>删除渠道</translation>
    </message>
    <message>
        <location line="-211"/>
        <source>Delete the channel</source>
        <translation>删除渠道</translation>
    </message>
    <message>
        <location line="+213"/>
        <source>Delete the channel “%1” (%2)? This cannot be undone.</source>
        <translation>要删除渠道“%1”（%2）吗？此操作无法撤消。</translation>
    </message>
    <message>
        <location line="-283"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Edit the channel</source>
        <translation>编辑渠道</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Filter by category</source>
        <translation>按类别筛选</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Filter by institution</source>
        <translation>按机构筛选</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Filter by status</source>
        <translation>按状态筛选</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Institution</source>
        <translation>机构</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>New channel</source>
        <translation>新建渠道</translation>
    </message>
    <message>
        <location line="-66"/>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
</context>
<context>
    <name>Confirm</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/confirm.py" line="+32"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>此操作将影响%1服务器“%2”。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Confirm change on production</source>
        <translation>确认在生产环境中更改</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply change</source>
        <translation>应用更改</translation>
    </message>
</context>
<context>
    <name>ConnectionState</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="-15"/>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server unreachable</source>
        <translation>无法连接服务器</translation>
    </message>
</context>
<context>
    <name>ConstantColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/constants_panel.py" line="+63"/>
        <source>Code</source>
        <extracomment>The extra columns each list has (section 2.2); the others are hidden.</extracomment>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Alpha-2</source>
        <translation>二位字母代码</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Alpha-3</source>
        <translation>三位字母代码</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Numeric code</source>
        <translation>数字代码</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Phone code</source>
        <translation>国际区号</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Zone id</source>
        <translation>时区 ID</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>UTC offset</source>
        <translation>UTC 偏移</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>ISO code</source>
        <translation>ISO 代码</translation>
    </message>
</context>
<context>
    <name>ConstantLists</name>
    <message>
        <location line="-104"/>
        <source>Countries</source>
        <extracomment>Readable names of the lists (source texts in context &quot;ConstantLists&quot;).</extracomment>
        <translation>国家/地区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Currency config statuses</source>
        <translation>货币配置状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notification channel statuses</source>
        <translation>通知渠道状态</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notification channel type statuses</source>
        <translation>通知渠道类型状态</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notification channel types</source>
        <translation>通知渠道类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Order statuses</source>
        <translation>订单状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zones</source>
        <translation>时区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transfer statuses</source>
        <translation>转账状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>US states</source>
        <translation>美国各州</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account statuses</source>
        <translation>账号状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution statuses</source>
        <translation>机构状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution types</source>
        <translation>机构类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitation statuses</source>
        <translation>邀请状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Join sources</source>
        <translation>加入来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal types</source>
        <translation>门户类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace statuses</source>
        <translation>工作区状态</translation>
    </message>
</context>
<context>
    <name>ConstantsPanel</name>
    <message>
        <location line="+221"/>
        <source>/constants/%1</source>
        <translation>/constants/%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Constant lists</source>
        <translation>常量列表</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Constants</source>
        <translation>常量</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Filter by code, label or description</source>
        <translation>按代码、标签或描述筛选</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Shown list</source>
        <translation>当前列表</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text filter</source>
        <translation>文本筛选</translation>
    </message>
</context>
<context>
    <name>DemoMailbox</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/mailbox.py" line="+57"/>
        <source>The demo mailbox exists only in the built-in sandbox.</source>
        <extracomment>list[MailItem], newest first.</extracomment>
        <translation>演示邮箱仅在内置沙箱中可用。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No email has been sent to %1 yet.</source>
        <translation>尚未向 %1 发送任何邮件。</translation>
    </message>
    <message>
        <location line="+189"/>
        <source>Demo mailbox — sandbox</source>
        <translation>演示邮箱 — 沙箱</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Demo mailbox</source>
        <translation>演示邮箱</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The built-in sandbox sends no real email. Every message it would send is kept here: codes, reset tokens and setup ids.</source>
        <translation>内置沙箱不会发送真实邮件，所有待发邮件都保存在这里：验证码、重置令牌和设置 ID。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Address:</source>
        <translation>地址(&amp;A)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sent</source>
        <translation>发送时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Subject</source>
        <translation>主题</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Code:</source>
        <translation>验证码：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset token:</source>
        <translation>重置令牌：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Setup id:</source>
        <translation>设置 ID：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verification code</source>
        <translation>验证码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the verification code</source>
        <translation>复制验证码</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reset token</source>
        <translation>重置令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the reset token</source>
        <translation>复制重置令牌</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Setup session id</source>
        <translation>设置会话 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the setup session id</source>
        <translation>复制设置会话 ID</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Email address of the mailbox</source>
        <translation>邮箱地址</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Refresh the mailbox</source>
        <translation>刷新邮箱</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Emails, newest first</source>
        <translation>邮件（最新的在前）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Email text</source>
        <translation>邮件正文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Email subject</source>
        <translation>邮件主题</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/detail.py" line="+82"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Security</source>
        <translation>安全性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Username</source>
        <translation>用户名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From address</source>
        <translation>发件人地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From name</source>
        <translation>发件人名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sender id</source>
        <translation>发送方 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing secret</source>
        <translation>签名密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IMAP</source>
        <translation>IMAP</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Select a row to see its details.</source>
        <translation>选择一行以查看详细信息。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>•••••• (set)</source>
        <translation>••••••（已设置）</translation>
    </message>
</context>
<context>
    <name>DoctorAdvice</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/words.py" line="+145"/>
        <source>Send this report to the program&apos;s support.</source>
        <translation>请将此报告发送给本程序的技术支持。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check the spelling of the host name and your network connection. Inside a company network, check that the VPN is on: internal names resolve only there.</source>
        <translation>请检查主机名的拼写和网络连接。在公司网络中，请确认 VPN 已开启：内部名称只能在那里解析。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check your network connection and, inside a company network, that the VPN is on.</source>
        <translation>请检查网络连接；在公司网络中，请确认 VPN 已开启。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Check the port in the URL and that the server (or proxy) is running; a firewall may also refuse the connection.</source>
        <translation>请检查 URL 中的端口，并确认服务器（或代理）正在运行；防火墙也可能拒绝连接。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A firewall is probably dropping the connection, or the server is down. Check that this network may reach the server (VPN, firewall rules).</source>
        <translation>可能是防火墙丢弃了连接，或服务器已停机。请确认此网络可以访问服务器（VPN、防火墙规则）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check your network connection and the routes to the server (VPN).</source>
        <translation>请检查网络连接以及到服务器的路由（VPN）。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The steps below still go through it.</source>
        <translation>下面的步骤仍会经过它。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check the proxy&apos;s address and port.</source>
        <translation>请检查代理的地址和端口。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Put the proxy&apos;s user name and password in HTTPS_PROXY (http://user:password@proxy:port) and choose the system proxy setting, or ask your IT department; the report never shows them.</source>
        <translation>请在 HTTPS_PROXY 中填写代理的用户名和密码（http://user:password@proxy:port）并选择系统代理设置，或询问 IT 部门；报告中永远不会显示它们。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Check the proxy&apos;s user name and password with your IT department.</source>
        <translation>请向 IT 部门核实代理的用户名和密码。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The proxy may not allow this server or port: ask your IT department, or choose no proxy if the server can be reached directly.</source>
        <translation>代理可能不允许访问此服务器或端口：请询问 IT 部门；如果可以直接访问服务器，请选择不使用代理。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check the proxy URL and its user name and password, or choose no proxy if the server can be reached directly.</source>
        <translation>请检查代理 URL 及其用户名和密码；如果可以直接访问服务器，请选择不使用代理。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>If the server&apos;s certificate was renewed, ask your IT department for the new fingerprint; otherwise something between you and the server shows its own certificate: do not sign in.</source>
        <translation>如果服务器证书已更新，请向 IT 部门索取新的指纹；否则说明你和服务器之间有东西出示了它自己的证书：请不要登录。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Tell the server&apos;s administrators: after that date no connection will work.</source>
        <translation>请告知服务器管理员：该日期之后所有连接都将失败。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Ask the server&apos;s administrators to enable TLS 1.2 or 1.3.</source>
        <translation>请让服务器管理员启用 TLS 1.2 或 1.3。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Tell the server&apos;s administrators; also check this computer&apos;s date and time.</source>
        <translation>请告知服务器管理员；同时检查本机的日期和时间。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Use a host name the certificate names in the URL, or ask the server&apos;s administrators for a certificate that names this one.</source>
        <translation>请在 URL 中使用证书中列出的主机名，或让服务器管理员提供包含此主机名的证书。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>If the server uses a private or company CA, or a proxy inspects TLS, get that CA&apos;s certificate (PEM) and choose it as the profile&apos;s CA bundle. Never turn verification off.</source>
        <translation>如果服务器使用私有或公司 CA，或代理会检查 TLS，请获取该 CA 的证书（PEM）并将其选为连接配置的 CA 证书包。切勿关闭验证。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Choose the server&apos;s CA certificate as the profile&apos;s CA bundle, or ask its administrators.</source>
        <translation>请将服务器的 CA 证书选为连接配置的 CA 证书包，或询问服务器管理员。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The URL says https:// but the port serves plain HTTP (or something else): check the scheme and port of the URL.</source>
        <translation>URL 使用 https://，但该端口提供的是明文 HTTP（或其他协议）：请检查 URL 的协议和端口。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server and this computer found no common TLS version or cipher, or something between them closed the connection. Check the URL&apos;s port and any proxy or firewall.</source>
        <translation>服务器与本机没有共同的 TLS 版本或加密算法，或两者之间有东西关闭了连接。请检查 URL 的端口以及代理或防火墙。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Something between you and the server holds the connection: check the URL&apos;s port and any firewall or proxy.</source>
        <translation>你和服务器之间有东西卡住了连接：请检查 URL 的端口以及防火墙或代理。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Use https:// if the server offers it.</source>
        <translation>如果服务器支持，请使用 https://。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Most things may still work; tell the server&apos;s administrators which version they run.</source>
        <translation>大部分功能可能仍然可用；请告知服务器管理员他们运行的版本。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A server that is not a System Portal, a proxy that changes answers, or a server fault. Retry; if it keeps happening, send this report to the server&apos;s administrators.</source>
        <translation>可能是服务器不是 System Portal、代理修改了应答，或服务器故障。请重试；如果问题持续，请将此报告发送给服务器管理员。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The network or the server is slow: the program will work, but slowly. A VPN, a proxy or a distant server may explain it.</source>
        <translation>网络或服务器较慢：程序可以使用，但会很慢。原因可能是 VPN、代理或服务器距离较远。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>This is a captive portal (sign in to the network in a web browser first), a web site, or a wrong URL: the URL must be the base address of a System Portal API.</source>
        <translation>这是强制门户（请先在网页浏览器中登录网络）、普通网站或错误的 URL：URL 必须是 System Portal API 的基础地址。</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+12"/>
        <source>A captive portal (hotel or guest Wi-Fi: open a web page and sign in to the network first), a sign-in page in front of the server, or a wrong URL (check http or https and the path).</source>
        <translation>可能是强制门户（酒店或访客 Wi-Fi：请先打开网页并登录网络）、服务器前面的登录页面，或错误的 URL（请检查 http 或 https 以及路径）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server behind the gateway is down or cannot be reached from it; retry later, or tell the server&apos;s administrators.</source>
        <translation>网关后面的服务器已停机或无法从网关访问；请稍后重试，或告知服务器管理员。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The URL must be the base address of the System Portal API; check it with the server&apos;s administrators.</source>
        <translation>URL 必须是 System Portal API 的基础地址；请向服务器管理员核实。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server (or a gateway in front of it) has a problem: retry later, and tell its administrators if it lasts.</source>
        <translation>服务器（或其前面的网关）出现问题：请稍后重试，如果持续存在，请告知服务器管理员。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Something between you and the server (a proxy, a load balancer, a firewall) or the server itself drops connections. Retry; if it keeps happening, tell the server&apos;s administrators.</source>
        <translation>你和服务器之间的某个环节（代理、负载均衡器、防火墙）或服务器本身断开了连接。请重试；如果问题持续，请告知服务器管理员。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server or the network is very slow, or a firewall holds the connection.</source>
        <translation>服务器或网络非常慢，或防火墙卡住了连接。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Check the URL, the network and any proxy.</source>
        <translation>请检查 URL、网络以及代理。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Check the profile&apos;s portal access code.</source>
        <translation>请检查连接配置的门户访问码。</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+9"/>
        <source>Authenticator codes change every 30 seconds and sign-ins expire by the server&apos;s clock: codes may be refused. Set the wrong clock from a time server (NTP).</source>
        <translation>身份验证器代码每 30 秒变化一次，登录按服务器时钟过期：代码可能会被拒绝。请通过时间服务器（NTP）校准错误的时钟。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Tell the server&apos;s administrators: the envelope&apos;s timestamp is unusable.</source>
        <translation>请告知服务器管理员：信封中的时间戳无法使用。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The program refuses it unless the profile allows legacy padding. Ask the server&apos;s administrators to switch to RSA-OAEP-256.</source>
        <translation>除非连接配置允许旧版填充，否则程序会拒绝。请让服务器管理员改用 RSA-OAEP-256。</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+4"/>
        <location line="+48"/>
        <location line="+4"/>
        <location line="+4"/>
        <source>Send this report to the server&apos;s administrators.</source>
        <translation>请将此报告发送给服务器管理员。</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>The program fetches the key again by itself; if this happens often, tell the server&apos;s administrators that the key changes too often.</source>
        <translation>程序会自动重新获取密钥；如果经常发生，请告知服务器管理员密钥更换过于频繁。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The key rotates constantly, or servers behind a load balancer have different keys; tell the server&apos;s administrators.</source>
        <translation>密钥在不断轮换，或负载均衡器后面的服务器使用不同的密钥；请告知服务器管理员。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Sessions expire far too soon, or servers behind a load balancer do not share them. The program retries with a new session, at the cost of slower calls; tell the server&apos;s administrators.</source>
        <translation>会话过期太快，或负载均衡器后面的服务器没有共享会话。程序会用新会话重试，但调用会变慢；请告知服务器管理员。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Enter the profile&apos;s portal access code; the portal&apos;s administrators give it.</source>
        <translation>请填写连接配置的门户访问码；门户管理员会提供。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Check the profile&apos;s portal access code with the portal&apos;s administrators.</source>
        <translation>请向门户管理员核实连接配置的门户访问码。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>See the earlier steps.</source>
        <translation>请查看前面的步骤。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The program works, but lists show English labels (or raw keys) in those languages: the server&apos;s translations are missing.</source>
        <translation>程序可以使用，但在这些语言中列表会显示英文标签（或原始键名）：服务器缺少翻译。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>See the earlier steps: the server&apos;s answers are not usable.</source>
        <translation>请查看前面的步骤：服务器的应答无法使用。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The problems above may be these faults: start the sandbox without fault injection for a clean test.</source>
        <translation>上面的问题可能就是这些故障：请在不注入故障的情况下启动沙箱，再做一次干净的测试。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Whoever can read this file can sign evidence as this installation: keep it, and copies of it in backups, to yourself.</source>
        <translation>任何能读取此文件的人都能以本安装的身份为证据签名：请妥善保管此文件及备份中的副本，勿让他人读取。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Evidence packs, review decisions, sign-offs and journal checkpoints cannot be signed until it can: if the key file has a passphrase, set PORTAL_ADMIN_KEY_PASSPHRASE.</source>
        <translation>在能读取之前，无法为证据包、审查决定、签核和变更日志检查点签名：如果密钥文件设有口令，请设置 PORTAL_ADMIN_KEY_PASSPHRASE。</translation>
    </message>
</context>
<context>
    <name>DoctorCodes</name>
    <message>
        <location line="-631"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>The server runs inside this program: there is no network to check.</source>
        <extracomment>Summary and advice by diagnosis code (and a variant, see :func:`_key`).</extracomment>
        <translation>服务器在本程序内运行：没有需要检查的网络。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skipped: an earlier step failed.</source>
        <translation>已跳过：前面的步骤失败。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped: the server cannot be reached (see above).</source>
        <translation>已跳过：无法连接服务器（见上文）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Skipped: the server does not answer as a System Portal (see above).</source>
        <translation>已跳过：服务器的应答不像 System Portal（见上文）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skipped: no usable public key.</source>
        <translation>已跳过：没有可用的公钥。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped: the public list could not be read.</source>
        <translation>已跳过：无法读取公开列表。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The check stopped on an unexpected error.</source>
        <translation>检查因意外错误而停止。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 resolves to %2.</source>
        <translation>%1 解析为 %2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The name %1 could not be resolved.</source>
        <translation>无法解析名称 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The name %1 could not be resolved in time.</source>
        <translation>未能及时解析名称 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Connected to %1.</source>
        <translation>已连接到 %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The connection to %1 was refused: nothing listens on that port.</source>
        <translation>连接 %1 被拒绝：该端口上没有服务在监听。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No answer from %1 in time.</source>
        <translation>%1 未及时应答。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server could not be reached at %1.</source>
        <translation>无法通过 %1 连接服务器。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No proxy is used for this server.</source>
        <translation>此服务器不使用代理。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The proxy %1 lets the connection through.</source>
        <translation>代理 %1 允许连接通过。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The proxy is reached over TLS, which this test does not check by itself.</source>
        <translation>代理通过 TLS 访问，本测试不单独检查这一点。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 does not answer as an HTTP proxy.</source>
        <translation>%1 的应答不像 HTTP 代理。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy requires a user name and password (HTTP 407).</source>
        <translation>代理要求用户名和密码（HTTP 407）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The proxy refused the user name and password it was given (HTTP 407).</source>
        <translation>代理拒绝了所提供的用户名和密码（HTTP 407）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The proxy could not open a connection to the server (%1).</source>
        <translation>代理无法打开到服务器的连接（%1）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The proxy refused the request.</source>
        <translation>代理拒绝了请求。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 with a valid, trusted certificate for %2.</source>
        <translation>%1，%2 的证书有效且受信任。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 with a valid, trusted certificate for %2; it matches the pin.</source>
        <translation>%1，%2 的证书有效且受信任；与固定值一致。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server&apos;s certificate is not the one the profile pins (SHA-256 %1).</source>
        <translation>服务器证书不是连接配置所固定的证书（SHA-256 %1）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server&apos;s certificate ends in %1 days (%2).</source>
        <translation>服务器证书将在 %1 天后到期（%2）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server offers only %1, which is outdated.</source>
        <translation>服务器只提供 %1，该版本已过时。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The server&apos;s certificate has expired (%1).</source>
        <translation>服务器证书已过期（%1）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server&apos;s certificate is for %1, not for this host.</source>
        <translation>服务器证书属于 %1，而不是此主机。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s certificate (issued by %1) is not trusted.</source>
        <translation>服务器证书（由 %1 签发）不受信任。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The server&apos;s certificate could not be verified (%1).</source>
        <translation>无法验证服务器证书（%1）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s port does not speak TLS.</source>
        <translation>服务器的端口不使用 TLS。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The TLS handshake failed.</source>
        <translation>TLS 握手失败。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The TLS handshake got no answer in time.</source>
        <translation>TLS 握手未及时得到应答。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The URL is plain http://: everything travels unencrypted.</source>
        <translation>URL 是明文 http://：所有内容都未加密传输。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Plain http to this computer: no TLS to check.</source>
        <translation>到本机的明文 http：没有 TLS 需要检查。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A System Portal answer, envelope version %1, %2 items.</source>
        <translation>System Portal 应答，信封版本 %1，%2 个条目。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The envelope&apos;s version is %1, not the one this program speaks.</source>
        <translation>信封版本为 %1，与本程序使用的版本不同。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The answer is not a valid System Portal envelope.</source>
        <translation>该应答不是有效的 System Portal 信封。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server answered a small public list in %1 s, which is slow.</source>
        <translation>服务器用了 %1 秒才返回一个很小的公开列表，速度很慢。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server answered with a web page (HTTP %1), not the System Portal API.</source>
        <translation>服务器返回的是网页（HTTP %1），而不是 System Portal API。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server redirects (HTTP %1) instead of answering the API.</source>
        <translation>服务器进行了重定向（HTTP %1），而不是应答 API。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server redirects (HTTP %1) to %2 instead of answering the API.</source>
        <translation>服务器重定向（HTTP %1）到 %2，而不是应答 API。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>A gateway or proxy answered with an HTML error page (HTTP %1) instead of the server.</source>
        <translation>网关或代理返回了 HTML 错误页面（HTTP %1），而不是服务器的应答。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server answered HTTP %1 without the API&apos;s envelope: it is not a System Portal, or the URL&apos;s path is wrong.</source>
        <translation>服务器返回 HTTP %1 且没有 API 信封：它不是 System Portal，或 URL 路径有误。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server answered with an error (HTTP %1, code %2).</source>
        <translation>服务器返回了错误（HTTP %1，代码 %2）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The connection was closed before a complete answer arrived.</source>
        <translation>在收到完整应答之前连接已关闭。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server did not answer in time.</source>
        <translation>服务器未及时应答。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The connection could not be opened.</source>
        <translation>无法打开连接。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refused the request: the portal access code is missing or wrong, or a gateway blocks this computer.</source>
        <translation>服务器拒绝了请求：门户访问码缺失或错误，或网关阻止了这台计算机。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server answered the error %1 (HTTP %2).</source>
        <translation>服务器返回错误 %1（HTTP %2）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server&apos;s clock and this computer&apos;s agree within %1.</source>
        <translation>服务器时钟与本机时钟相差在 %1 以内。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server&apos;s clock is %1 ahead of this computer&apos;s.</source>
        <translation>服务器时钟比本机快 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s clock is %1 behind this computer&apos;s.</source>
        <translation>服务器时钟比本机慢 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s timestamp cannot be read as a time.</source>
        <translation>无法将服务器的时间戳读取为时间。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The server&apos;s answer carries no timestamp to compare with.</source>
        <translation>服务器的应答中没有可供比较的时间戳。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>An RSA key of %1 bits, wrapped with %2.</source>
        <translation>%1 位 RSA 密钥，使用 %2 封装。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server wraps keys with the legacy PKCS#1 v1.5 padding (%1).</source>
        <translation>服务器使用旧版 PKCS#1 v1.5 填充封装密钥（%1）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server&apos;s key uses an algorithm this program does not know.</source>
        <translation>服务器的密钥使用了本程序不认识的算法。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server&apos;s public key is unusable.</source>
        <translation>服务器的公钥无法使用。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A session was opened and closed; both answers were sealed and opened correctly.</source>
        <translation>会话已打开并关闭；两个应答都已正确加密并解密。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server changed its key between reading and using it; with the new key a session opened and closed.</source>
        <translation>服务器在读取和使用密钥之间更换了密钥；使用新密钥后会话已打开并关闭。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server refused its own key twice: the key changes constantly.</source>
        <translation>服务器两次拒绝了自己的密钥：密钥在不断变化。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The session opened, but the server had already forgotten it when it was closed.</source>
        <translation>会话已打开，但关闭时服务器已经忘记了它。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server could not open the key exchange: the algorithm it announces is not the one it uses.</source>
        <translation>服务器无法打开密钥交换：它公布的算法与实际使用的不一致。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server&apos;s encrypted answer could not be opened.</source>
        <translation>无法解密服务器的加密应答。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The session answer has no session id.</source>
        <translation>会话应答中没有会话 ID。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server requires %1; this program sends them.</source>
        <translation>服务器要求 %1；本程序会发送它们。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No header is required before signing in.</source>
        <translation>登录前不需要任何请求头。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server requires a portal access code and none was given.</source>
        <translation>服务器要求门户访问码，但未提供。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server refuses the portal access code given.</source>
        <translation>服务器拒绝了所提供的门户访问码。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Whether the server requires %1 could not be told from its answers.</source>
        <translation>无法从服务器的应答判断它是否要求 %1。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Labels answer in %1.</source>
        <translation>标签可用 %1 返回。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Labels are not translated for %1.</source>
        <translation>标签未翻译为 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The labels could not be read in %1.</source>
        <translation>无法读取 %1 的标签。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server is not a sandbox with fault injection.</source>
        <translation>该服务器不是带故障注入的沙箱。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server is a sandbox; fault injection is off.</source>
        <translation>该服务器是沙箱；故障注入已关闭。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server is a sandbox injecting faults on purpose: %1.</source>
        <translation>该服务器是有意注入故障的沙箱：%1。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Kept in the system keyring; fingerprint %1.</source>
        <translation>保存在系统密钥环中；指纹 %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Kept in the key file %1 (no usable keyring), readable by its owner only; fingerprint %2.</source>
        <translation>保存在密钥文件 %1 中（无可用的密钥环），仅其所有者可读取；指纹 %2。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No key yet: it is made on first use, in the system keyring.</source>
        <translation>尚无密钥：首次使用时在系统密钥环中创建。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No key yet: it is made on first use, in the key file %1.</source>
        <translation>尚无密钥：首次使用时在密钥文件 %1 中创建。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The evidence-signing key cannot be read: %1.</source>
        <translation>无法读取证据签名密钥：%1。</translation>
    </message>
</context>
<context>
    <name>DoctorDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/dialog.py" line="+108"/>
        <source>%1 s</source>
        <extracomment>The icon of each outcome (``ui/theme/icons.py``).</extracomment>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+159"/>
        <source>Testing the connection…</source>
        <extracomment>The report being written (``save_report``, started by the file dialog).</extracomment>
        <translation>正在测试连接…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The test was stopped.</source>
        <translation>测试已停止。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This profile cannot be tested: %1</source>
        <translation>无法测试此连接配置：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The connection does not work: see the failed step above.</source>
        <translation>连接不可用：请查看上面失败的步骤。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server can be used, but look at the warnings above.</source>
        <translation>服务器可以使用，但请查看上面的警告。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Everything works: this program can connect to the server.</source>
        <translation>一切正常：本程序可以连接到服务器。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The report was copied.</source>
        <translation>报告已复制。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Text report (*.txt)</source>
        <translation>文本报告 (*.txt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON report (*.json)</source>
        <translation>JSON 报告 (*.json)</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The report could not be saved: %1</source>
        <translation>无法保存报告：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The report was saved to %1.</source>
        <translation>报告已保存到 %1。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Test connection — %1</source>
        <translation>测试连接 — %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the built-in sandbox</source>
        <translation>内置沙箱</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server: %1</source>
        <translation>服务器：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Checks the network, TLS and the API step by step, without signing in. The report holds no password, code or token.</source>
        <translation>逐步检查网络、TLS 和 API，不会登录。报告中不含任何密码、代码或令牌。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy report</source>
        <translation>复制报告(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save report…</source>
        <translation>保存报告(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Run again</source>
        <translation>重新运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
</context>
<context>
    <name>DoctorFaults</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/words.py" line="-673"/>
        <source>added latency of %1 ms</source>
        <extracomment>A sandbox&apos;s fault settings (``details[&quot;faults&quot;]``): words and how the value is written.</extracomment>
        <translation>增加 %1 毫秒延迟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>latency jitter of up to %1 ms</source>
        <translation>延迟抖动最多 %1 毫秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are server errors</source>
        <translation>%1 的应答是服务器错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of connections are dropped</source>
        <translation>%1 的连接被断开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are malformed</source>
        <translation>%1 的应答格式错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are an HTML page</source>
        <translation>%1 的应答是 HTML 页面</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Secure Channel sessions expire before %1 of requests</source>
        <translation>%1 的请求之前安全通道会话已过期</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the key is rotated before %1 of requests</source>
        <translation>%1 的请求之前密钥被轮换</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the clock is shifted by %1 s</source>
        <translation>时钟偏移 %1 秒</translation>
    </message>
</context>
<context>
    <name>DoctorSteps</name>
    <message>
        <location line="-37"/>
        <source>DNS</source>
        <translation>DNS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TCP connection</source>
        <translation>TCP 连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP proxy</source>
        <translation>HTTP 代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API envelope</source>
        <translation>API 信封</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server clock</source>
        <translation>服务器时钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel public key</source>
        <translation>安全通道公钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel session</source>
        <translation>安全通道会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pre-login headers</source>
        <translation>登录前请求头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Label languages</source>
        <translation>标签语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sandbox fault injection</source>
        <translation>沙箱故障注入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence signing key</source>
        <translation>证据签名密钥</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
</context>
<context>
    <name>EnumLabels</name>
    <message>
        <location filename="../src/portal_admin/ui/enum_labels.py" line="+19"/>
        <location line="+59"/>
        <location line="+60"/>
        <source>Active</source>
        <extracomment>Own labels by enumeration, found by its type name or its constants path. The enumerations with labels of the program&apos;s own, for ``shown``&apos;s ``kind``. An enumeration: its listing, type name (``UserAccountStatus``) or constants path.</extracomment>
        <translation>活动</translation>
    </message>
    <message>
        <location line="-118"/>
        <location line="+82"/>
        <source>Suspended</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location line="-81"/>
        <source>Pending setup</source>
        <translation>待初始化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+80"/>
        <source>Deactivated</source>
        <translation>已停用</translation>
    </message>
    <message>
        <location line="-79"/>
        <source>Registered</source>
        <translation>已注册</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System portal</source>
        <translation>系统门户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tenant portal</source>
        <translation>租户门户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Partner portal</source>
        <translation>合作伙伴门户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Consumer portal</source>
        <translation>消费者门户</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Declined</source>
        <translation>已谢绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Inactive</source>
        <translation>未启用</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+54"/>
        <source>Enabled</source>
        <translation>已启用</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>E-mail code</source>
        <translation>邮件验证码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Authenticator app</source>
        <translation>身份验证器应用</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+26"/>
        <source>E-mail</source>
        <extracomment>Field names a person reads: the snapshot&apos;s columns, and the request bodies&apos; names the journal keeps (``accountRemark``), by name.</extracomment>
        <translation>邮箱</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>SMS</source>
        <translation>短信</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Webhook</source>
        <translation>Webhook</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In the app</source>
        <translation>应用内</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Activated</source>
        <extracomment>What an account status action leads to, said as its result (&quot;Suspended&quot;).</extracomment>
        <translation>已激活</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>门户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>机构</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>国家/地区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>备注</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permissions</source>
        <translation>权限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Members</source>
        <translation>成员</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expires</source>
        <translation>过期时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primary</source>
        <translation>首选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verified</source>
        <translation>已验证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist enforced</source>
        <translation>强制执行 IP 白名单</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backup codes</source>
        <translation>备用码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session settings</source>
        <translation>会话设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid for (days)</source>
        <translation>有效期（天）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal type</source>
        <translation>门户类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP addresses</source>
        <translation>IP 地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type code</source>
        <translation>类型代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type name</source>
        <translation>类型名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type description</source>
        <translation>类型描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type value</source>
        <translation>类型值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type status</source>
        <translation>类型状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Display order</source>
        <translation>显示顺序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Icon address</source>
        <translation>图标地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel name</source>
        <translation>渠道名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel category</source>
        <translation>渠道类别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel status</source>
        <translation>渠道状态</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Yes</source>
        <extracomment>Prefixes a request body puts before a field&apos;s own name (``accountRemark``: the remark). Which enumeration a field&apos;s values belong to, by field (the kind of row decides &quot;status&quot;). Which enumeration a ``status`` or ``type`` belongs to, by the kind of row (the diff&apos;s kinds). Fields whose values are yes or no.</extracomment>
        <translation>是</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>EnvironmentBanner</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/banner.py" line="+48"/>
        <source>built-in</source>
        <translation>内置</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>READ-ONLY</source>
        <translation>只读</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
</context>
<context>
    <name>EnvironmentType</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/store.py" line="+47"/>
        <source>PRODUCTION</source>
        <translation>生产环境</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STAGING</source>
        <translation>预发布环境</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TEST</source>
        <translation>测试环境</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SANDBOX</source>
        <translation>沙箱环境</translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/error_dialog.py" line="+98"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error code:</source>
        <translation>错误代码：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id:</source>
        <translation>请求 ID：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy details</source>
        <translation>复制详细信息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy error details</source>
        <translation>复制错误详细信息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error code</source>
        <translation>错误代码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Request id</source>
        <translation>请求 ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Technical details</source>
        <translation>技术详情</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error summary</source>
        <translation>错误摘要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error message</source>
        <translation>错误消息</translation>
    </message>
</context>
<context>
    <name>ErrorInfo</name>
    <message>
        <location filename="../src/portal_admin/ui/error_info.py" line="+22"/>
        <source>You are not signed in, or your sign-in has expired.</source>
        <translation>您尚未登录，或登录已过期。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your account does not have permission to do this.</source>
        <translation>您的账号无权执行此操作。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The item no longer exists.</source>
        <translation>该项已不存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The change conflicts with the current state on the server.</source>
        <translation>此更改与服务器上的当前状态冲突。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Too many requests. Please wait a moment and try again.</source>
        <translation>请求过于频繁，请稍后重试。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server did not accept the input.</source>
        <translation>服务器未接受输入的内容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The encrypted Secure Channel to the server failed.</source>
        <translation>与服务器之间的加密安全通道出错。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server could not complete the request.</source>
        <translation>服务器无法完成该请求。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server could not be reached.</source>
        <translation>无法连接到服务器。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server did not answer in time.</source>
        <translation>服务器响应超时。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A file or folder on this computer could not be used.</source>
        <translation>无法使用本机上的文件或文件夹。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server address cannot be used: it must be http:// or https:// and a host name.</source>
        <extracomment>Profile settings the client or the doctor cannot use, by the client&apos;s error code.</extracomment>
        <translation>无法使用服务器地址：必须是 http:// 或 https:// 加主机名。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The CA bundle file cannot be found or read. Check its path in the profile.</source>
        <translation>找不到或无法读取 CA 证书包文件。请检查配置中的路径。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A certificate pin cannot be used: it must be a SHA-256 fingerprint, with an https:// address. Check the profile&apos;s pins.</source>
        <translation>无法使用证书固定值：必须是 SHA-256 指纹，并使用 https:// 地址。请检查配置中的固定值。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy address cannot be used: it must be http://host:port. Check the profile&apos;s proxy.</source>
        <translation>无法使用代理地址：必须是 http://主机:端口。请检查配置中的代理设置。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This id cannot be used: an id has only letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos;. Nothing was sent.</source>
        <extracomment>Failures with a cause of their own (connections, a refused id), by the client&apos;s error code.</extracomment>
        <translation>无法使用此 ID：ID 只能包含字母、数字、“-”、“_”和“.”。未发送任何内容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy asks for a user name and password, which this program does not have. Use the system proxy setting with them in HTTPS_PROXY, or ask your IT department.</source>
        <translation>代理要求提供用户名和密码，而本程序没有这些信息。请使用在 HTTPS_PROXY 中包含凭据的系统代理设置，或联系您的 IT 部门。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy refused to connect to the server. Check the profile&apos;s proxy.</source>
        <translation>代理拒绝连接到服务器。请检查配置中的代理设置。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server&apos;s certificate is not the one this profile pins: nothing was sent. Ask your IT department whether the certificate was renewed.</source>
        <translation>服务器的证书不是此配置固定的证书：未发送任何内容。请询问您的 IT 部门证书是否已更新。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A gateway or proxy answered instead of the server (HTTP %1): the server behind it is down or cannot be reached from it. Try again later, or tell the server&apos;s administrators.</source>
        <extracomment>A gateway or proxy answered instead of the server (the client&apos;s ``GatewayError``); %1 is the HTTP status.</extracomment>
        <translation>网关或代理代替服务器作出了应答（HTTP %1）：网关后面的服务器已停机或无法从网关访问。请稍后重试，或告知服务器管理员。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Something unexpected went wrong in the program.</source>
        <translation>程序发生意外错误。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Error code</source>
        <extracomment>True for failures the program did not foresee (a bug): shown with their details.</extracomment>
        <translation>错误代码</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Request id</source>
        <translation>请求 ID</translation>
    </message>
</context>
<context>
    <name>ErrorLine</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/error_line.py" line="+129"/>
        <source>Copy</source>
        <extracomment>The failure shown (None: nothing, or a message without a failure behind it).</extracomment>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the error, its code and request id</source>
        <translation>复制错误信息、错误代码和请求 ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server message</source>
        <translation>服务器消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error code and request id</source>
        <translation>错误代码和请求 ID</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Error code</source>
        <translation>错误代码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Request id</source>
        <translation>请求 ID</translation>
    </message>
</context>
<context>
    <name>EvidencePack</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/packing.py" line="+179"/>
        <source>Evidence pack written to %1, signed by the key %2.</source>
        <translation>证据包已写入 %1，由密钥 %2 签名。</translation>
    </message>
</context>
<context>
    <name>EvidenceReport</name>
    <message>
        <location line="-147"/>
        <source>Snapshot</source>
        <extracomment>Builds (kind, tables, summary) for a pack, in the worker thread. The names a pack&apos;s report shows (its kind, summary keys, tables and columns) that the program&apos;s field labels (``enum_labels.field_label``) do not already name.</extracomment>
        <translation>快照</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Comparison of two snapshots</source>
        <translation>两个快照的比较</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal</source>
        <translation>变更日志</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Records</source>
        <translation>记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Since</source>
        <translation>起始</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Until</source>
        <translation>截至</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter</source>
        <translation>筛选条件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal head</source>
        <translation>变更日志末端</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal intact</source>
        <translation>变更日志完好</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed checkpoints</source>
        <translation>已签名的检查点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Snapshot of</source>
        <translation>快照对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connection profile</source>
        <translation>连接配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Taken by</source>
        <translation>获取者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished</source>
        <translation>完成时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Program version</source>
        <translation>程序版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Older snapshot</source>
        <translation>较早的快照</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Newer snapshot</source>
        <translation>较新的快照</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing key</source>
        <translation>签名密钥</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Accounts</source>
        <translation>账号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>邀请</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist</source>
        <translation>IP 白名单</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Multi-factor authentication</source>
        <translation>多因素认证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel types</source>
        <translation>渠道类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notification channels</source>
        <translation>通知渠道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Constants</source>
        <translation>常量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Changes</source>
        <translation>变更</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Number</source>
        <translation>序号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Segment</source>
        <translation>段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server time</source>
        <translation>服务器时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Targets</source>
        <translation>对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fields</source>
        <translation>字段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id</source>
        <translation>请求 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP status</source>
        <translation>HTTP 状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Intent number</source>
        <translation>意图序号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hash</source>
        <translation>哈希</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous hash</source>
        <translation>上一个哈希</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key</source>
        <translation>密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Public key</source>
        <translation>公钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signature</source>
        <translation>签名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inviter</source>
        <translation>邀请人</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>List</source>
        <translation>列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field (label)</source>
        <translation>字段（标签）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before (label)</source>
        <translation>之前（标签）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After (label)</source>
        <translation>之后（标签）</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Evidence pack: %1</source>
        <extracomment>The names the program&apos;s field labels already name (translated in ``enum_labels``). Columns of the snapshot tables whose codes the program labels, by the kind of row. The summary keys and columns whose values are not labelled (free text, hashes, times).</extracomment>
        <translation>证据包：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 rows</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the first %1 shown, all in %2</source>
        <translation>显示前 %1 行，全部见 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/export_dialog.py" line="+92"/>
        <location line="+11"/>
        <source>Export to CSV</source>
        <translation>导出为 CSV</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;File:</source>
        <translation>文件(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Delimiter:</source>
        <translation>分隔符(&amp;D)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Comma (,)</source>
        <translation>逗号（,）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Semicolon (;)</source>
        <translation>分号（;）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tab</source>
        <translation>制表符</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export file</source>
        <translation>导出文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose the export file</source>
        <translation>选择导出文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delimiter</source>
        <translation>分隔符</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Exporting</source>
        <translation>正在导出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export progress</source>
        <translation>导出进度</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Exported %1 of %2 rows…</source>
        <translation>已导出 %1/%2 行…</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+24"/>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Export finished</source>
        <translation>导出完成</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%n row(s) exported to %1.</source>
        <translation>已将 %n 行导出到 %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open the folder of the exported file</source>
        <translation>打开导出文件所在的文件夹</translation>
    </message>
</context>
<context>
    <name>FileWork</name>
    <message>
        <location filename="../src/portal_admin/ui/file_work.py" line="+32"/>
        <source>The file cannot be read: it is damaged, or it is not a file this program writes.</source>
        <translation>无法读取该文件：文件已损坏，或者不是本程序写入的文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The file is in use by another window or by the command line. Try again later.</source>
        <translation>该文件正被另一个窗口或命令行使用。请稍后再试。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing can be signed: this installation&apos;s signing key cannot be read.</source>
        <translation>无法签名任何内容：无法读取本安装的签名密钥。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The key is kept in the system keyring or, without one, in a key file only you can read. If that file has a passphrase, start the program with PORTAL_ADMIN_KEY_PASSPHRASE set. Help &gt; About says where the key is.</source>
        <translation>该密钥保存在系统密钥环中；没有密钥环时，保存在只有您能读取的密钥文件中。如果该文件设有口令，请在设置 PORTAL_ADMIN_KEY_PASSPHRASE 后启动本程序。“帮助 &gt; 关于”会显示密钥的位置。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The file work did not end within %1 seconds.</source>
        <translation>文件操作未在 %1 秒内结束。</translation>
    </message>
</context>
<context>
    <name>InvitationColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/models.py" line="+29"/>
        <source>Invitee email</source>
        <translation>受邀人邮箱</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+57"/>
        <source>Inviter</source>
        <translation>邀请人</translation>
    </message>
    <message>
        <location line="-50"/>
        <location line="+57"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="-50"/>
        <location line="+72"/>
        <source>Message</source>
        <translation>附言</translation>
    </message>
    <message>
        <location line="-65"/>
        <location line="+50"/>
        <source>Expires</source>
        <translation>过期时间</translation>
    </message>
    <message>
        <location line="-42"/>
        <location line="+63"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="-55"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Can be accepted</source>
        <translation>能否接受</translation>
    </message>
</context>
<context>
    <name>InvitationDialogs</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/dialogs.py" line="+221"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>%1 / %2 characters</source>
        <translation>%1/%2 个字符</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Email:</source>
        <translation>邮箱(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Message:</source>
        <translation>附言(&amp;M)：</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>&amp;Reason (optional):</source>
        <translation>原因（可选）(&amp;R)：</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>Between %1 and %2 days</source>
        <translation>%1 到 %2 天</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+64"/>
        <location line="+33"/>
        <location line="+3"/>
        <source>Cancel invitation</source>
        <translation>取消邀请</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Cancel the invitation to %1? They will no longer be able to accept it. This cannot be undone.</source>
        <translation>要取消对 %1 的邀请吗？对方将无法再接受该邀请。此操作无法撤消。</translation>
    </message>
    <message>
        <location line="-97"/>
        <source>E&amp;xpires after:</source>
        <translation>有效期(&amp;X)：</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Email problem</source>
        <translation>邮箱地址问题</translation>
    </message>
    <message>
        <location line="-206"/>
        <source>Enter the email address of the person to invite.</source>
        <extracomment>The bounds the wire description states (``protocol.bodies``): 1 to 30 days, default 7.</extracomment>
        <translation>请输入受邀人的邮箱地址。</translation>
    </message>
    <message>
        <location line="+196"/>
        <source>Expiration in days</source>
        <translation>有效天数</translation>
    </message>
    <message>
        <location line="+99"/>
        <source>For example: sent to the wrong address</source>
        <translation>例如：发错了地址</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>Invitation message</source>
        <translation>邀请附言</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Invite</source>
        <translation>邀请</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>Invite someone</source>
        <translation>邀请成员</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Invitee email</source>
        <translation>受邀人邮箱</translation>
    </message>
    <message>
        <location line="+120"/>
        <location line="+2"/>
        <source>Keep invitation</source>
        <translation>保留邀请</translation>
    </message>
    <message>
        <location line="-116"/>
        <source>Optional message shown in the invitation email</source>
        <translation>显示在邀请邮件中的附言（可选）</translation>
    </message>
    <message>
        <location line="+118"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Reason for cancelling</source>
        <translation>取消原因</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>Send invitation</source>
        <translation>发送邀请</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Server error</source>
        <translation>服务器错误</translation>
    </message>
    <message>
        <location line="-204"/>
        <source>The email address is longer than %1 characters.</source>
        <translation>邮箱地址超过 %1 个字符。</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>The message is longer than %1 characters.</source>
        <extracomment>The person pressed Invite with valid input: the panel sends it.</extracomment>
        <translation>附言超过 %1 个字符。</translation>
    </message>
    <message>
        <location line="+159"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>此操作将影响%1服务器“%2”。</translation>
    </message>
    <message>
        <location line="-270"/>
        <source>This is not a valid email address (expected name@example.com).</source>
        <translation>这不是有效的邮箱地址（格式应为 name@example.com）。</translation>
    </message>
</context>
<context>
    <name>Invitations</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/models.py" line="+25"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="+54"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/panel.py" line="+328"/>
        <source>All statuses</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cancel invitation…</source>
        <translation>取消邀请…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel the selected invitation</source>
        <translation>取消所选邀请</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="+42"/>
        <source>Cannot be accepted: %1</source>
        <translation>无法接受：%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/panel.py" line="-38"/>
        <source>Could not cancel the invitation to %1</source>
        <translation>无法取消对 %1 的邀请</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Could not invite</source>
        <translation>无法发送邀请</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>There are no invitations yet.</source>
        <translation>还没有邀请。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No invitations match these filters.</source>
        <translation>没有符合这些筛选条件的邀请。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Status:</source>
        <translation>状态(&amp;S)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by email, inviter or message</source>
        <translation>按邮箱、邀请人或附言筛选</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Invitations</source>
        <translation>邀请</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Invite someone</source>
        <translation>邀请成员</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Invite…</source>
        <translation>邀请…</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Inviting is not possible: %1</source>
        <translation>无法邀请：%1</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Only pending invitations can be cancelled; this one is %1.</source>
        <translation>只能取消待处理的邀请；此邀请的状态为%1。</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Select a pending invitation to cancel it.</source>
        <translation>选择一个待处理的邀请即可取消。</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>Status filter</source>
        <translation>状态筛选</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text filter</source>
        <translation>文本筛选</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Why actions are disabled</source>
        <translation>操作不可用的原因</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="-3"/>
        <source>already accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>declined</source>
        <translation>已谢绝</translation>
    </message>
    <message>
        <location line="-58"/>
        <location line="+56"/>
        <location line="+4"/>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="-57"/>
        <source>in %n day(s)</source>
        <translation>%n 天后</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in %n hour(s)</source>
        <translation>%n 小时后</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in %n minute(s)</source>
        <translation>%n 分钟后</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>not open</source>
        <translation>未开放</translation>
    </message>
</context>
<context>
    <name>IpWhitelistPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_entry_delegate.py" line="+44"/>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist_model.py" line="+34"/>
        <source>Address or network</source>
        <translation>地址或网段</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist_model.py" line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Added</source>
        <translation>添加时间</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>IPv4 address</source>
        <translation>IPv4 地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv6 address</source>
        <translation>IPv6 地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv4 network (CIDR)</source>
        <translation>IPv4 网段（CIDR）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv6 network (CIDR)</source>
        <translation>IPv6 网段（CIDR）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enter an address or a network.</source>
        <translation>请输入地址或网段。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Too long for an address.</source>
        <translation>超出地址的长度。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host bits are set: use the network address.</source>
        <translation>主机位不为零：请使用网络地址。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The prefix length is not valid.</source>
        <translation>前缀长度无效。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not an IPv4 or IPv6 address or CIDR network.</source>
        <translation>不是有效的 IPv4/IPv6 地址或 CIDR 网段。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist.py" line="+211"/>
        <source>%1 entries are not valid: correct or remove them to save.</source>
        <translation>%1 个条目无效：请更正或删除后再保存。</translation>
    </message>
    <message>
        <location line="+269"/>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>&amp;Disable</source>
        <translation>禁用(&amp;D)</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>&amp;Enable</source>
        <translation>启用(&amp;E)</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location line="-179"/>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message>
        <location line="-98"/>
        <source>1 entry is not valid: correct or remove it to save.</source>
        <translation>1 个条目无效：请更正或删除后再保存。</translation>
    </message>
    <message>
        <location line="+264"/>
        <source>Add the entry</source>
        <translation>添加条目</translation>
    </message>
    <message>
        <location line="-168"/>
        <location line="+37"/>
        <source>Change the IP whitelist.</source>
        <translation>更改 IP 白名单。</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Continue anyway</source>
        <translation>仍然继续</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Could not disable the IP whitelist</source>
        <translation>无法禁用 IP 白名单</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>Could not enable the IP whitelist</source>
        <translation>无法启用 IP 白名单</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>Could not save the IP whitelist</source>
        <translation>无法保存 IP 白名单</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Disable the IP whitelist.</source>
        <translation>禁用 IP 白名单。</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Disable the whitelist</source>
        <translation>禁用白名单</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Rever&amp;t</source>
        <translation>还原(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Discard the changes</source>
        <translation>放弃更改</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Enable the whitelist</source>
        <translation>启用白名单</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Entry problems</source>
        <translation>条目问题</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>IPv4 or IPv6 address, or CIDR network</source>
        <translation>IPv4/IPv6 地址或 CIDR 网段</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New entry</source>
        <translation>新条目</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>New entry check</source>
        <translation>新条目检查结果</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Remove the selected entry</source>
        <translation>删除所选条目</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Save the whitelist</source>
        <translation>保存白名单</translation>
    </message>
    <message>
        <location line="-250"/>
        <source>The address you connect from is not known.</source>
        <translation>无法确定您当前的连接地址。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>The whitelist does not contain %1, the address you connect from. Once it is enforced, the server may refuse this program: you may lock yourself out. Continue anyway?</source>
        <translation>白名单中不包含您当前的连接地址 %1。白名单生效后，服务器可能会拒绝本程序的连接，您可能会把自己锁在外面。仍要继续吗？</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>The whitelist is disabled: every address may sign in.</source>
        <translation>白名单已禁用：所有地址均可登录。</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>The whitelist is enabled: only the addresses below may sign in.</source>
        <translation>白名单已启用：只有以下地址可以登录。</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Unsaved changes.</source>
        <translation>有未保存的更改。</translation>
    </message>
    <message>
        <location line="+250"/>
        <source>Whitelist entries</source>
        <translation>白名单条目</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Whitelist state</source>
        <translation>白名单状态</translation>
    </message>
    <message>
        <location line="-246"/>
        <source>You connect from %1, which the whitelist contains.</source>
        <translation>您当前的连接地址 %1 在白名单中。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>You connect from %1, which the whitelist does not contain.</source>
        <translation>您当前的连接地址 %1 不在白名单中。</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>You may lock yourself out</source>
        <translation>您可能会把自己锁在外面</translation>
    </message>
    <message>
        <location line="+184"/>
        <source>Your address</source>
        <translation>您的地址</translation>
    </message>
</context>
<context>
    <name>JobsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/panel.py" line="+37"/>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Left</source>
        <translation>剩余</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <location line="+126"/>
        <source>Select one job.</source>
        <extracomment>One job as the panel lists it. A job file that cannot be opened (damaged, removed, another user&apos;s) is said here.</extracomment>
        <translation>请选择一个作业。</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Bulk changes made from this computer. A paused or interrupted job can be resumed: targets whose outcome was not known are read back first, so nothing is changed twice.</source>
        <translation>在此计算机上进行的批量更改。已暂停或中断的任务可以继续：会先重新读取结果未知的目标，因此不会重复更改。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Show…</source>
        <translation>显示(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rever&amp;t the job…</source>
        <translation>还原此任务(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bulk jobs</source>
        <translation>批量任务</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Job files: %1</source>
        <translation>任务文件：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Jobs</source>
        <translation>任务</translation>
    </message>
</context>
<context>
    <name>JournalPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/journal_panel.py" line="+49"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Targets</source>
        <translation>对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>变更内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id</source>
        <translation>请求 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/operation_titles.py" line="+23"/>
        <source>Succeeded</source>
        <extracomment>A journal record&apos;s outcome, by its code (the Journal panel&apos;s words, its packs&apos; too).</extracomment>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refused</source>
        <translation>被拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/journal_panel.py" line="+29"/>
        <source>Sent, outcome not recorded</source>
        <extracomment>Rows shown at most (the newest); exports write every matching record. Account names asked of the server at most per reading of the journal. An intent whose outcome record is missing: the program stopped before the answer.</extracomment>
        <translation>已发送，结果未记录</translation>
    </message>
    <message>
        <location line="+276"/>
        <source>The journal is empty: no change was sent from this computer.</source>
        <extracomment>Account ids -&gt; names, read from the signed-in server (&quot;&quot; when it has none).</extracomment>
        <translation>日志为空：此计算机尚未发送任何变更。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The chain verifies: %1 records, head %2.</source>
        <translation>链校验通过：%1 条记录，链头 %2。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 new segment(s) after a cut-off record (a crash).</source>
        <translation>在被截断的记录（崩溃）之后有 %1 个新段。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>But %1 record(s) are not authenticated (the first: record %2): no checkpoint of this installation vouches for them and this program did not write them. A revert leaves them alone unless their job file confirms them.</source>
        <translation>但有 %1 条记录未经认证（第一条：记录 %2）：本安装没有任何检查点为它们担保，它们也不是本程序写入的。除非其任务文件能确认它们，还原时不会处理它们。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The journal does not match its signed checkpoints: %1.</source>
        <translation>变更日志与其签名检查点不符：%1。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The chain is BROKEN at line %1 (record %2): %3.</source>
        <translation>链在第 %1 行（记录 %2）处已损坏：%3。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>%1 records written to %2.</source>
        <translation>已将 %1 条记录写入 %2。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Filter by account, operation or id</source>
        <translation>按账户、操作或 ID 筛选</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Journal filter</source>
        <translation>日志筛选</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All outcomes</source>
        <translation>所有结果</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Outcome filter</source>
        <translation>结果筛选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the journal again (F5)</source>
        <translation>重新读取变更日志（F5）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>证据包…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Revert…</source>
        <translation>还原(&amp;R)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set the selected changes back to their values before</source>
        <translation>将所选更改恢复为更改前的值</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A signed zip of the records shown: CSV and a report</source>
        <translation>所显示记录的签名 zip：CSV 和报告</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Journal of changes</source>
        <translation>变更日志</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Journal</source>
        <translation>变更日志</translation>
    </message>
</context>
<context>
    <name>KeyNotice</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/key_notice.py" line="+97"/>
        <source>Got it</source>
        <extracomment>Beside the key file: the key file&apos;s path once the person has been told of it.</extracomment>
        <translation>知道了</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This computer has no usable keyring, so the key that signs your evidence packs, review decisions and journal checkpoints is kept in a file only you can read: %1. Whoever can read that file can sign as this installation: keep it, and its backups, to yourself. Help &gt; About shows it again.</source>
        <translation>这台计算机没有可用的密钥环，因此为您的证据包、审查决定和变更日志检查点签名的密钥保存在一个只有您能读取的文件中：%1。任何能读取该文件的人都能以本安装的身份签名：请妥善保管该文件及其备份，勿让他人读取。“帮助 &gt; 关于”会再次显示此信息。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Where the signing key is kept</source>
        <translation>签名密钥的保存位置</translation>
    </message>
</context>
<context>
    <name>KioskMarking</name>
    <message>
        <location filename="../src/portal_admin/ui/kiosk/marking.py" line="+64"/>
        <source>Read-only · %1</source>
        <extracomment>Height of the watermark strip added below a screenshot, in pixels (device independent). Below this width the strip has two lines (time, then account) and is at least this wide.</extracomment>
        <translation>只读 · %1</translation>
    </message>
</context>
<context>
    <name>ListView</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/paged_list.py" line="+121"/>
        <source>Retry</source>
        <extracomment>How many rows fitting a column to its contents looks at (those on screen first). From this width (px) the detail pane sits beside the list; under it, below the list. The narrowest a fitted column gets to spare a horizontal scroll bar (px). Qt&apos;s &quot;no limit&quot; for a widget&apos;s size. The state&apos;s icon, above the text (``set_icon``). &quot;Clear filters&quot;, shown when filters hide every row. The panel&apos;s own first step on an empty list (``PagedList.set_empty_action``).</extracomment>
        <translation>重试</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retry loading the list</source>
        <translation>重新加载列表</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List state</source>
        <translation>列表状态</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Clear filters</source>
        <translation>清除筛选条件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Clear the filters of the list</source>
        <translation>清除列表的筛选条件</translation>
    </message>
    <message>
        <location line="+334"/>
        <source>Export failed</source>
        <extracomment>The row object of the current row, or None. Enter or a double click on a row: the row object (open its detail). Delete: the selected row objects (start the delete action, with its confirmation). F2: the current row object (edit it). True once the person chose column widths (or a view brought some): not fitted then. The context menu, copies and keys (``ui/lists/table_actions.py``). Fits the columns again once a resize (a maximised window) has settled.</extracomment>
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>Columns</source>
        <translation>列</translation>
    </message>
    <message>
        <location line="+148"/>
        <location filename="../src/portal_admin/ui/lists/table_actions.py" line="+288"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/table_actions.py" line="-48"/>
        <source>Copy id</source>
        <translation>复制 ID</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Row actions</source>
        <extracomment>The translation context of the menu&apos;s texts (they began in the list widget, then ``ListView``). Enter or a double click on a row: the row object (open it, or do its main thing). Delete: the chosen row objects (start the delete action, with its confirmation). F2: the current row object (edit it).</extracomment>
        <translation>行操作</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Copy cell</source>
        <translation>复制单元格</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy rows as text</source>
        <translation>将这些行复制为文本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy row as text</source>
        <translation>将此行复制为文本</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copy rows as CSV</source>
        <translation>将这些行复制为 CSV</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy row as CSV</source>
        <translation>将此行复制为 CSV</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copy ids</source>
        <translation>复制 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/paged_list.py" line="-107"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Nothing to show.</source>
        <translation>没有可显示的内容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing matches these filters.</source>
        <translation>没有符合这些筛选条件的内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The list could not be loaded.</source>
        <translation>无法加载列表。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Error code: %1</source>
        <translation>错误代码：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Request id: %1</source>
        <translation>请求 ID：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Showing %1 of %2</source>
        <translation>已显示 %1 条，共 %2 条</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Loading more…</source>
        <translation>正在加载更多…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%n selected</source>
        <translation>已选择 %n 项</translation>
    </message>
    <message>
        <location line="+34"/>
        <location line="+4"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Reload the list (F5)</source>
        <translation>重新加载列表（F5）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export every row of this view to a CSV file</source>
        <translation>将此视图的所有行导出到 CSV 文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+20"/>
        <source>List</source>
        <translation>列表</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>List status</source>
        <translation>列表状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filters</source>
        <translation>筛选条件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Saved views: filters, sort and columns kept on this computer</source>
        <translation>已保存的视图：筛选条件、排序和列保存在这台计算机上</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Views</source>
        <translation>视图</translation>
    </message>
</context>
<context>
    <name>LoginHistoryPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/history.py" line="+50"/>
        <source>All results</source>
        <extracomment>Result filter choices: (key, server value, source text).</extracomment>
        <translation>所有结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>已拦截</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Client IP</source>
        <translation>客户端 IP</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Failure reason</source>
        <translation>失败原因</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>User agent</source>
        <translation>用户代理</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+199"/>
        <source>Show as chart</source>
        <translation>以图表显示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show as table</source>
        <translation>以表格显示</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Switches between the chart and a table of its numbers</source>
        <translation>在图表和其数字表格之间切换</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>No sign-ins recorded yet.</source>
        <translation>还没有登录记录。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No sign-ins match these filters.</source>
        <translation>没有符合这些筛选条件的登录。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Result:</source>
        <translation>结果(&amp;R)：</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Based on all %1 sign-ins of this filter.</source>
        <translation>基于此筛选条件下的全部 %1 次登录。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Chart note</source>
        <translation>图表说明</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>From date</source>
        <translation>开始日期</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Loading the chart…</source>
        <translation>正在加载图表…</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Sign-ins per day, as a table</source>
        <translation>每日登录次数（表格）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Login history</source>
        <translation>登录历史</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Login result</source>
        <translation>登录结果</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+2"/>
        <source>Sign-ins per day</source>
        <translation>每日登录次数</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>The chart shows the latest %1 of %2 sign-ins.</source>
        <translation>图表显示 %2 次登录中最近的 %1 次。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>To</source>
        <translation>至</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>To date</source>
        <translation>结束日期</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/lock.py" line="+58"/>
        <location line="+10"/>
        <source>Locked</source>
        <translation>已锁定</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>The window was locked. Sign in again to continue; your work is kept.</source>
        <translation>窗口已锁定。请重新登录以继续，您的工作内容已保留。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sign in again…</source>
        <translation>重新登录…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign in again to unlock</source>
        <translation>重新登录以解锁</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/window.py" line="+410"/>
        <source>The panel “%1” could not be opened.</source>
        <extracomment>A language code from the View &gt; Language menu. Emitted when the window closes (the application then quits). Kiosk mode: the idle time ran out; the session is to be signed out. The kiosk settings (None outside kiosk mode). Once per key file: where the evidence-signing key is kept (no keyring).</extracomment>
        <translation>无法打开面板“%1”。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+77"/>
        <source>No keyring: the sign-in is kept in memory only</source>
        <extracomment>Shown when no keyring can keep the sign-in: it lasts only while the program runs.</extracomment>
        <translation>无密钥环：登录状态仅保存在内存中</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/window.py" line="+90"/>
        <source>Not signed in</source>
        <translation>未登录</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Signed-in account</source>
        <translation>当前登录账号</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>System Portal Admin — %1</source>
        <translation>System Portal Admin — %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>System Portal Admin</source>
        <translation>System Portal Admin</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Log &amp;out</source>
        <translation>退出登录(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Log out</source>
        <translation>退出登录</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sign &amp;out</source>
        <translation>退出登录(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign out</source>
        <translation>退出登录</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>READ-ONLY SESSION — nothing can be changed here</source>
        <translation>只读会话——此处无法进行任何更改</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Read-only session</source>
        <translation>只读会话</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Lock</source>
        <translation>锁定(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Command &amp;palette…</source>
        <translation>命令面板(&amp;P)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change &amp;password…</source>
        <translation>修改密码(&amp;P)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About…</source>
        <translation>关于(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Panels</source>
        <translation>面板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Panel</source>
        <translation>面板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a panel on the left.</source>
        <translation>请在左侧选择一个面板。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+15"/>
        <source>Connection state</source>
        <translation>连接状态</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Secure Channel state</source>
        <translation>安全通道状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last request id:</source>
        <translation>最近请求 ID：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Last request id</source>
        <translation>最近请求 ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Working</source>
        <translation>处理中</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/message_bar.py" line="+101"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dismiss the message</source>
        <translation>关闭此消息</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Error code: %1</source>
        <translation>错误代码：%1</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Message details</source>
        <translation>消息详情</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Message summary</source>
        <translation>消息摘要</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Request id: %1</source>
        <translation>请求 ID：%1</translation>
    </message>
</context>
<context>
    <name>MfaPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/mfa.py" line="+50"/>
        <source>Method</source>
        <translation>方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enabled</source>
        <translation>已启用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primary</source>
        <translation>首选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verified</source>
        <translation>已验证</translation>
    </message>
    <message>
        <location line="+197"/>
        <source>%1 of %2 backup codes remaining</source>
        <translation>剩余 %1 个备用码（共 %2 个）</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>A new set of backup codes replaces the current one: your old codes stop working at once. The new codes are shown only once.</source>
        <translation>新的一组备用码将替换当前备用码，旧备用码会立即失效。新备用码只显示一次。</translation>
    </message>
    <message>
        <location line="+77"/>
        <location line="+1"/>
        <source>Backup codes</source>
        <translation>备用码</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Backup codes remaining</source>
        <translation>剩余备用码</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Could not generate backup codes</source>
        <translation>无法生成备用码</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Could not revoke the authenticator</source>
        <translation>无法撤销身份验证器</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+84"/>
        <source>Generate new backup codes</source>
        <translation>生成新的备用码</translation>
    </message>
    <message>
        <location line="-78"/>
        <source>Generate new codes</source>
        <translation>生成新备用码</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>Generate new codes…</source>
        <translation>生成新备用码…</translation>
    </message>
    <message>
        <location line="-142"/>
        <source>No backup codes have been generated.</source>
        <translation>尚未生成备用码。</translation>
    </message>
    <message>
        <location line="-134"/>
        <source>Not verified</source>
        <translation>未验证</translation>
    </message>
    <message>
        <location line="+166"/>
        <source>Revoke</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>Revoke authenticator…</source>
        <translation>撤销身份验证器…</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+111"/>
        <source>Revoke the authenticator</source>
        <translation>撤销身份验证器</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Sign-in codes from your authenticator app will stop working. You will sign in with email codes until you set up an authenticator again.</source>
        <translation>身份验证器应用生成的登录验证码将失效。在重新设置身份验证器之前，您将使用邮件验证码登录。</translation>
    </message>
    <message>
        <location line="+101"/>
        <location line="+2"/>
        <location line="+2"/>
        <source>Sign-in methods</source>
        <translation>登录验证方式</translation>
    </message>
    <message>
        <location line="-150"/>
        <source>The authenticator is not set up.</source>
        <translation>尚未设置身份验证器。</translation>
    </message>
</context>
<context>
    <name>NotificationChecks</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/validation.py" line="+26"/>
        <source>%1 is required.</source>
        <translation>%1为必填项。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is longer than %2 characters.</source>
        <translation>%1超过 %2 个字符。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The code needs 2 to 32 letters, digits or underscores, starting with a letter.</source>
        <translation>代码须由 2 到 32 个字母、数字或下划线组成，并以字母开头。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 must be an http or https address.</source>
        <translation>%1必须是 http 或 https 网址。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 is not valid JSON (line %2, column %3).</source>
        <translation>%1不是有效的 JSON（第 %2 行，第 %3 列）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 must be a JSON object {…}.</source>
        <translation>%1必须是 JSON 对象 {…}。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 is not a host name.</source>
        <translation>%1不是有效的主机名。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is not an email address.</source>
        <translation>%1不是有效的邮箱地址。</translation>
    </message>
</context>
<context>
    <name>NotificationPanels</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/record_panel.py" line="+151"/>
        <source>Changes are not available: %1</source>
        <extracomment>The operation id, given the current row (e.g. enable or disable by status). Runner topics that make this panel reload. The factory (``build``) starts loading, through the controller; ``reload()`` loads again what follows the language. Set by the subclass.</extracomment>
        <translation>无法进行更改：%1</translation>
    </message>
</context>
<context>
    <name>Notifications</name>
    <message>
        <location line="+117"/>
        <source>Could not load the lists of choices</source>
        <translation>无法加载选项列表</translation>
    </message>
</context>
<context>
    <name>OfflineReview</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/offline.py" line="+51"/>
        <source>Review campaign (not signed in)</source>
        <translation>审阅审查活动（未登录）</translation>
    </message>
</context>
<context>
    <name>OperationTitles</name>
    <message>
        <location filename="../src/portal_admin/ui/operation_titles.py" line="+7"/>
        <source>Ask for a password reset</source>
        <extracomment>The title of every mutating operation, by id.</extracomment>
        <translation>申请重置密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset the password</source>
        <translation>重置密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change own password</source>
        <translation>修改自己的密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the first password</source>
        <translation>设置初始密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the IP whitelist</source>
        <translation>设置 IP 白名单</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enforce the IP whitelist</source>
        <translation>启用 IP 白名单</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop enforcing the IP whitelist</source>
        <translation>停用 IP 白名单</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Generate backup codes</source>
        <translation>生成备用码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the authenticator app</source>
        <translation>移除身份验证器应用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mail a password reset link</source>
        <translation>发送密码重置链接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change account status</source>
        <translation>更改账号状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit an account</source>
        <translation>编辑账号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite someone</source>
        <translation>邀请用户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel an invitation</source>
        <translation>取消邀请</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a channel type</source>
        <translation>创建渠道类型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a channel type</source>
        <translation>删除渠道类型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Disable a channel type</source>
        <translation>停用渠道类型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enable a channel type</source>
        <translation>启用渠道类型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit a channel type</source>
        <translation>编辑渠道类型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Activate a channel</source>
        <translation>启用渠道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a channel</source>
        <translation>创建渠道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate a channel</source>
        <translation>停用渠道</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a channel</source>
        <translation>删除渠道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit a channel</source>
        <translation>编辑渠道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check the incoming mail settings</source>
        <translation>检查收信设置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check the outgoing mail settings</source>
        <translation>检查发信设置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a role</source>
        <translation>删除角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a portal</source>
        <translation>创建门户</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>(none)</source>
        <extracomment>The kind of row an operation&apos;s ``status`` belongs to, by the id&apos;s prefix.</extracomment>
        <translation>（无）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 (was %2)</source>
        <translation>%1（原为 %2）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1: %2 → %3</source>
        <translation>%1：%2 → %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>bulk job %1</source>
        <translation>批量任务 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reverts %1</source>
        <translation>还原记录 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>OwnInvitations</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/own.py" line="+172"/>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Invitation statuses to show</source>
        <translation>要显示的邀请状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>My invitations</source>
        <translation>我的邀请</translation>
    </message>
</context>
<context>
    <name>PackCheck</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/pack_check_dialog.py" line="+84"/>
        <source>this installation&apos;s key</source>
        <extracomment>Who signed, by ``PackVerification.trust``.</extracomment>
        <translation>本安装的密钥</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the key you pinned</source>
        <translation>您指定的密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a key you do not trust</source>
        <translation>您不信任的密钥</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>the trusted key “%1”</source>
        <translation>受信任的密钥“%1”</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>changed: %1</source>
        <extracomment>The problem that means the pack&apos;s key did not sign it. What a pack check finds, as ``evidence.pack.verify_pack`` says it: a fixed sentence, or ``WHAT: NAME`` (``changed: accounts.csv``); a problem not listed here is shown as written.</extracomment>
        <translation>已更改：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed: %1</source>
        <translation>已移除：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added: %1</source>
        <translation>已添加：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in the zip twice: %1</source>
        <translation>在 zip 中出现两次：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>damaged, cannot be read: %1</source>
        <translation>已损坏，无法读取：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>encrypted (no pack is): %1</source>
        <translation>已加密（证据包不会加密）：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compressed in a way no pack is: %1</source>
        <translation>使用了证据包不会使用的压缩方式：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>expands far more than a pack&apos;s file can (not read): %1</source>
        <translation>解压后远大于证据包中的文件可能的大小（未读取）：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>named twice in the manifest: %1</source>
        <translation>在清单中出现两次：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the file does not exist</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is not a zip file</source>
        <translation>它不是 zip 文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it holds far more files than a pack does</source>
        <translation>它包含的文件远多于证据包</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its files together are larger than a pack may be</source>
        <translation>其文件总大小超过证据包的上限</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it has no signed manifest</source>
        <translation>它没有签名的清单</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its manifest cannot be read</source>
        <translation>无法读取它的清单</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its manifest is larger than a pack&apos;s can be</source>
        <translation>其清单超过证据包清单的大小上限</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its signature cannot be read</source>
        <translation>无法读取其签名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it was made by a newer version of the program</source>
        <translation>它由更新版本的程序创建</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the manifest&apos;s signature does not verify</source>
        <translation>清单的签名验证失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>public_key.pem is not the key that signed the manifest</source>
        <translation>public_key.pem 不是签署清单的密钥</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it was signed by another key than the one pinned</source>
        <translation>它由指定密钥以外的密钥签名</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>unknown (the signature does not verify; the key below is only what the pack claims)</source>
        <extracomment>Tones (ui/theme/tones.py) of a good, doubtful and bad finding: they follow the theme.</extracomment>
        <translation>未知（签名验证失败；下面的密钥只是证据包自称的密钥）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>unknown (no signing key could be read)</source>
        <translation>未知（无法读取签名密钥）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The pack %1 is intact: every file matches its signed manifest.</source>
        <translation>证据包 %1 完好：每个文件都与其签名清单一致。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The pack %1 is not verified: a key you do not trust signed it.</source>
        <translation>证据包 %1 未通过验证：签名的是您不信任的密钥。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Its files match its manifest, but anyone can make a key and sign a pack with it. Compare the fingerprint above with the one the signer reads to you from their program&apos;s Help &gt; About, by another channel (in person or by telephone). If they are the same, trust the key and check the pack again.</source>
        <translation>其文件与清单一致，但任何人都可以生成密钥并用它签名证据包。请通过其他渠道（当面或电话）将上面的指纹与签名者从其程序“帮助 &gt; 关于”中读给您的指纹进行比对。如果二者相同，请信任该密钥并再次检查证据包。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The pack %1 was changed after it was signed.</source>
        <translation>证据包 %1 在签名后被更改过。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is not an evidence pack.</source>
        <translation>%1 不是证据包。</translation>
    </message>
    <message>
        <location line="+192"/>
        <source>Evidence pack check</source>
        <extracomment>Check this pack (a ``Path``) again: a key was trusted, or the person asked. The person wants the list of trusted keys.</extracomment>
        <translation>证据包检查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pack:</source>
        <translation>证据包：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed by:</source>
        <translation>签名者：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Fingerprint:</source>
        <translation>指纹(&amp;F)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fingerprint of the signing key</source>
        <translation>签名密钥的指纹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the fingerprint</source>
        <translation>复制指纹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What was found:</source>
        <translation>发现的问题：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What was found</source>
        <translation>发现的问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust this key…</source>
        <translation>信任此密钥…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trusted keys…</source>
        <translation>受信任的密钥…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check again</source>
        <translation>再次检查</translation>
    </message>
</context>
<context>
    <name>Palette</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/palette_entries.py" line="+21"/>
        <source>Refresh the current panel</source>
        <translation>刷新当前面板</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lock the window</source>
        <translation>锁定窗口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change my password</source>
        <translation>修改我的密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sign out</source>
        <translation>退出登录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About this program</source>
        <translation>关于本程序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Language: %1</source>
        <translation>语言：%1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>View: %1</source>
        <translation>视图：%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/command_palette.py" line="+48"/>
        <source>Panel</source>
        <translation>面板</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved view</source>
        <translation>已保存的视图</translation>
    </message>
    <message>
        <location line="+112"/>
        <location line="+30"/>
        <source>Looking for accounts…</source>
        <extracomment>Where the focus was when the palette opened: it goes back there on closing.</extracomment>
        <translation>正在查找账户…</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Nothing matches.</source>
        <translation>没有匹配项。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>No account has this e-mail, name or id.</source>
        <translation>没有账户使用此电子邮件、名称或 ID。</translation>
    </message>
    <message>
        <location line="+65"/>
        <location line="+1"/>
        <source>Command palette</source>
        <translation>命令面板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type a panel, a command, or an account&apos;s e-mail, name or id</source>
        <translation>输入面板、命令，或账户的电子邮件、名称或 ID</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Results</source>
        <translation>结果</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/__init__.py" line="+34"/>
        <source>Accounts</source>
        <translation>账号</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Portals</source>
        <translation>门户</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/__init__.py" line="+30"/>
        <source>Invitations</source>
        <translation>邀请</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>My invitations</source>
        <translation>我的邀请</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/__init__.py" line="+31"/>
        <source>Notification channel types</source>
        <translation>通知渠道类型</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Notification channels</source>
        <translation>通知渠道</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/__init__.py" line="+30"/>
        <source>Constants</source>
        <translation>常量</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Profile</source>
        <translation>个人资料</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/__init__.py" line="+40"/>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Login history</source>
        <translation>登录历史</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Multi-factor authentication</source>
        <translation>多因素认证</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>IP whitelist</source>
        <translation>IP 白名单</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/__init__.py" line="+23"/>
        <source>Bulk jobs</source>
        <translation>批量任务</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/__init__.py" line="+33"/>
        <source>Snapshots</source>
        <translation>快照</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Journal</source>
        <translation>变更日志</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/__init__.py" line="+25"/>
        <source>Review campaigns</source>
        <translation>审查活动</translation>
    </message>
</context>
<context>
    <name>Permissions</name>
    <message>
        <location filename="../src/portal_admin/ui/permissions.py" line="+57"/>
        <source>This session is read-only.</source>
        <translation>此会话为只读。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your role lacks the permission {permission}.</source>
        <translation>您的角色缺少权限 {permission}。</translation>
    </message>
</context>
<context>
    <name>PortalsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+8"/>
        <source>Active</source>
        <translation>已启用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inactive</source>
        <translation>未启用</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Institution</source>
        <translation>机构</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+64"/>
        <source>%1 of at most %2 characters</source>
        <translation>%1/%2 个字符</translation>
    </message>
    <message>
        <location line="+211"/>
        <source>&amp;Domain:</source>
        <translation>域名(&amp;D)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Institution:</source>
        <translation>机构(&amp;I)：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>&amp;Remark:</source>
        <translation>备注(&amp;R)：</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Type:</source>
        <translation>类型(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+74"/>
        <source>Choose a portal type.</source>
        <extracomment>The created portal record. (code, label) pairs of the portal types. The panel: it keeps the tasks and knows what the signed-in account may do.</extracomment>
        <translation>请选择门户类型。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+15"/>
        <source>Choose a portal type…</source>
        <translation>选择门户类型…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+53"/>
        <source>Could not create the portal</source>
        <translation>无法创建门户</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-23"/>
        <source>Create a portal for an institution. The server offers no way to list portals: the table below shows only the portals created in this session.</source>
        <translation>为机构创建门户。服务器不提供门户列表，下表仅显示本次会话中创建的门户。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Create portal</source>
        <translation>创建门户</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Create the portal</source>
        <translation>创建门户</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="-23"/>
        <source>Create the portal %1.</source>
        <translation>创建门户 %1。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-25"/>
        <source>Created portal</source>
        <translation>已创建的门户</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Created:</source>
        <translation>创建时间：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="-129"/>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-23"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+20"/>
        <source>Domain:</source>
        <translation>域名：</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Id:</source>
        <translation>ID：</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Institution id</source>
        <translation>机构 ID</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Institution:</source>
        <translation>机构：</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>New portal</source>
        <translation>新建门户</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optional: empty means your own institution</source>
        <translation>可选：留空表示您自己的机构</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Portal type</source>
        <translation>门户类型</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Portals created in this &amp;session:</source>
        <translation>本次会话中创建的门户(&amp;S)：</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Portals</source>
        <translation>门户</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Portals created in this session</source>
        <translation>本次会话中创建的门户</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+12"/>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-11"/>
        <source>Remark</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+21"/>
        <source>Remark:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Status:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+93"/>
        <source>The domain is longer than %1 characters.</source>
        <translation>域名超过 %1 个字符。</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>The domain is required.</source>
        <translation>域名为必填项。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-81"/>
        <source>The portal %1 was created.</source>
        <extracomment>Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>门户 %1 已创建。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+13"/>
        <source>The remark is longer than %1 characters.</source>
        <translation>备注超过 %1 个字符。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+79"/>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Why the portal cannot be created yet</source>
        <translation>暂时无法创建门户的原因</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>e.g. portal.example.com (required)</source>
        <translation>例如 portal.example.com（必填）</translation>
    </message>
</context>
<context>
    <name>ProfileEditing</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/actions.py" line="+77"/>
        <source>The profile was not saved: your organisation manages it, or one of the same name.</source>
        <translation>配置未保存：它由您的组织管理，或已有同名的受管理配置。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The profiles could not be saved: the file is not writable.</source>
        <translation>无法保存配置：文件不可写入。</translation>
    </message>
</context>
<context>
    <name>ProfileEditor</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/editor.py" line="+304"/>
        <source>The server showed no certificate to pin.</source>
        <extracomment>An import was accepted: the whole new list of profiles (for ``ProfileStore.save``). Makes the in-process transport the built-in sandbox is tested over.</extracomment>
        <translation>服务器没有提供可固定的证书。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The pin was read from the server: compare it with the fingerprint your IT department gives before saving.</source>
        <translation>已从服务器读取固定值：保存前请与 IT 部门提供的指纹进行核对。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 profiles were exported to %2 (without access codes).</source>
        <translation>已将 %1 个连接配置导出到 %2（不含访问码）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The profiles were imported.</source>
        <translation>连接配置已导入。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>CA bundle</source>
        <translation>CA 证书包</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>证书 (*.pem *.crt *.cer);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Connection profile</source>
        <translation>连接配置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Base URL:</source>
        <translation>基础 URL(&amp;B)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Portal &amp;access code:</source>
        <translation>门户访问码(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal access code</source>
        <translation>门户访问码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Workspace id:</source>
        <translation>工作区 ID(&amp;W)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace id</source>
        <translation>工作区 ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Environment:</source>
        <translation>环境(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;CA bundle:</source>
        <translation>CA 证书包(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CA bundle file</source>
        <translation>CA 证书包文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Plain http:</source>
        <translation>明文 http：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow plain http to other hosts</source>
        <translation>允许以明文 http 连接其他主机</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Secure Channel:</source>
        <translation>安全通道：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+43"/>
        <source>Allow legacy padding</source>
        <translation>允许旧版填充</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>&amp;Idle lock:</source>
        <translation>闲置锁定(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Idle lock minutes</source>
        <translation>闲置锁定分钟数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kiosk:</source>
        <translation>展台模式：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+37"/>
        <source>Read-only kiosk mode</source>
        <translation>只读展台模式</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>&amp;Proxy:</source>
        <translation>代理(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Certi&amp;ficate pin:</source>
        <translation>证书固定(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Certificate pins (SHA-256)</source>
        <translation>证书固定值（SHA-256）</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Allow plain http to hosts other than this computer</source>
        <translation>允许以明文 http 连接本机以外的主机</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check the server as typed here, step by step, without signing in</source>
        <translation>按此处填写的内容逐步检查服务器，不会登录</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Choose a CA bundle file</source>
        <translation>选择 CA 证书包文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System certificates</source>
        <translation>系统证书</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>System settings</source>
        <translation>系统设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No proxy</source>
        <translation>不使用代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Proxy URL</source>
        <translation>代理 URL</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No user name or password here: a proxy that needs them is set in HTTPS_PROXY, with the system setting.</source>
        <translation>此处不填用户名或密码：需要凭据的代理请在 HTTPS_PROXY 中设置，并选择系统设置。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not pinned</source>
        <translation>未固定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Read from server</source>
        <translation>从服务器读取(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the pin from the server</source>
        <translation>从服务器读取固定值</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The built-in sandbox: it can be tested here, not changed.</source>
        <translation>内置沙箱：可以在此测试，但不能更改。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Managed by your organisation: this profile cannot be changed or deleted here.</source>
        <translation>由你的组织管理：此处无法更改或删除此连接配置。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Managed</source>
        <translation>受管理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the profiles to a file (without access codes)</source>
        <translation>将连接配置保存到文件（不含访问码）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>I&amp;mport…</source>
        <translation>导入(&amp;M)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add profiles from a file</source>
        <translation>从文件添加连接配置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
</context>
<context>
    <name>ProfileFields</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/profile_panel.py" line="+39"/>
        <source>Email</source>
        <extracomment>The fields shown, in order: (key in the record or its extras, label source text).</extracomment>
        <translation>邮箱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>门户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account id</source>
        <translation>账号 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution id</source>
        <translation>机构 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>国家/地区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspaces</source>
        <translation>工作区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFA methods</source>
        <translation>多因素认证方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permission codes</source>
        <translation>权限代码</translation>
    </message>
</context>
<context>
    <name>ProfilePanel</name>
    <message>
        <location line="+41"/>
        <source>%1 (primary)</source>
        <translation>%1（主）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 in %2</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+161"/>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Change password</source>
        <translation>修改密码</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Change password…</source>
        <translation>修改密码…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>My invitations</source>
        <translation>我的邀请</translation>
    </message>
    <message>
        <location line="-190"/>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+205"/>
        <source>Profile</source>
        <translation>个人资料</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Profile details</source>
        <translation>个人资料详情</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reload the profile</source>
        <translation>重新加载个人资料</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Signed-in account</source>
        <translation>当前登录账号</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>The profile could not be loaded.
%1</source>
        <extracomment>The person asked to change the password (also calls ``extras[&quot;change_password&quot;]``).</extracomment>
        <translation>无法加载个人资料。
%1</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>Yes</source>
        <extracomment>Extras never shown as such (covered by another field, or internal).</extracomment>
        <translation>是</translation>
    </message>
</context>
<context>
    <name>ProfileTransfer</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/transfer.py" line="+40"/>
        <source>The file cannot be imported: %1 %2. Nothing was imported.</source>
        <translation>无法导入该文件：%1 %2。未导入任何内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The file cannot be imported: %1. Nothing was imported.</source>
        <translation>无法导入该文件：%1。未导入任何内容。</translation>
    </message>
    <message>
        <location line="+39"/>
        <location line="+108"/>
        <source>Import profiles</source>
        <translation>导入连接配置</translation>
    </message>
    <message>
        <location line="-103"/>
        <source>Adds: %1</source>
        <translation>将添加：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Replaces: %1</source>
        <translation>将替换：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Skips (managed or built-in, never replaced): %1</source>
        <translation>将跳过（受管理或内置，不会被替换）：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The file holds no profile.</source>
        <translation>该文件中没有连接配置。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace my profiles of the same name</source>
        <translation>替换我的同名连接配置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Import</source>
        <translation>导入(&amp;I)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Profile files (*.json)</source>
        <extracomment>A file was written: its path and the number of profiles in it. An import was accepted: the whole new list of profiles, ready for ``store.save``. Something went wrong (a translated sentence); nothing was written or imported.</extracomment>
        <translation>连接配置文件 (*.json)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export profiles</source>
        <translation>导出连接配置</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The profiles cannot be exported: %1 %2.</source>
        <translation>无法导出连接配置：%1 %2。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The file could not be written: %1</source>
        <translation>无法写入文件：%1</translation>
    </message>
</context>
<context>
    <name>ProfileValidation</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/store.py" line="+16"/>
        <source>The profile needs a name.</source>
        <translation>请为配置命名。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Another profile already has this name.</source>
        <translation>已有同名的配置。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The base URL must start with https:// and name a host.</source>
        <translation>基础 URL 必须以 https:// 开头并包含主机名。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Plain http to a host other than this computer needs “Allow plain http”.</source>
        <translation>以明文 http 连接本机以外的主机前，请先勾选“允许以明文 http 连接其他主机”。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The CA bundle file does not exist.</source>
        <translation>CA 证书包文件不存在。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The proxy URL must be http://host:port or https://host:port, without a user name or password.</source>
        <translation>代理 URL 必须是 http://host:port 或 https://host:port，且不含用户名或密码。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The certificate pin “%1” is not a SHA-256 fingerprint (64 hexadecimal digits).</source>
        <translation>证书固定值“%1”不是 SHA-256 指纹（64 个十六进制数字）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The idle lock time cannot be negative.</source>
        <translation>闲置锁定时间不能为负数。</translation>
    </message>
</context>
<context>
    <name>ResumeOffer</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/resume_offer.py" line="+24"/>
        <source>Bulk jobs waiting</source>
        <translation>待继续的批量任务</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 bulk job(s) on this server were paused or interrupted. Resume them from the Bulk jobs panel: targets whose outcome is unknown are read back first, so nothing is changed twice.</source>
        <translation>此服务器上有 %1 个批量任务已暂停或中断。请在“批量任务”面板中继续：会先重新读取结果未知的目标，因此不会重复更改。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Show the jobs</source>
        <translation>显示任务</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Later</source>
        <translation>稍后</translation>
    </message>
</context>
<context>
    <name>RevertWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="-356"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>更改前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>更改后</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Now</source>
        <translation>当前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Why, and what to do instead</source>
        <translation>原因及替代做法</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+283"/>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>Set back</source>
        <extracomment>The task making the plan (set by the panel that opened the window). Set once the window is closed: a plan that arrives then is discarded. Why, as a bulk change asks (optional; sent with status changes, journaled).</extracomment>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Revert every change of bulk job %1 back to its value before.</source>
        <translation>将批量任务 %1 的每项更改还原为更改前的值。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Revert the changes of journal records %1 back to their value before.</source>
        <translation>将变更日志记录 %1 的更改还原为更改前的值。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The revert&apos;s plan</source>
        <translation>还原计划</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reading and verifying the journal, then the targets…</source>
        <translation>正在读取并验证变更日志，然后读取目标…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Nothing has been sent. To set back: %1; skipped: %2.</source>
        <translation>尚未发送任何内容。待恢复：%1；跳过：%2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Export the plan…</source>
        <translation>导出计划(&amp;E)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Run the revert (%1)</source>
        <translation>执行还原（%1）(&amp;R)</translation>
    </message>
</context>
<context>
    <name>RevertWords</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_words.py" line="+33"/>
        <source>Status</source>
        <extracomment>The values a revert sets back, by the key its records use.</extracomment>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>备注</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>国家/地区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist entries</source>
        <translation>IP 白名单条目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist enabled</source>
        <translation>IP 白名单已启用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel status</source>
        <translation>渠道状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel name</source>
        <translation>渠道名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default channel</source>
        <translation>默认渠道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type status</source>
        <translation>渠道类型状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type name</source>
        <translation>渠道类型名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type description</source>
        <translation>渠道类型描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Display order</source>
        <translation>显示顺序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Icon</source>
        <translation>图标</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Changed since</source>
        <extracomment>A skipped line, in a few words (the plan&apos;s column).</extracomment>
        <translation>之后已被更改</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already back</source>
        <translation>已是原值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not allowed</source>
        <translation>不允许</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not reversible</source>
        <translation>无法还原</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No value before</source>
        <translation>无更改前的值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Was refused</source>
        <translation>已被拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gone</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Another account&apos;s</source>
        <translation>属于其他账户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your own status</source>
        <translation>您自己的状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not authenticated</source>
        <translation>未经认证</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A password-reset mail cannot be taken back.</source>
        <extracomment>Why a kind of change cannot be set back, and what can be done instead.</extracomment>
        <translation>密码重置邮件无法撤回。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tell the person to ignore the mail; its link expires.</source>
        <translation>请告知对方忽略该邮件；其链接会过期。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A password is never recorded, so it cannot be set back.</source>
        <translation>密码从不被记录，因此无法恢复。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set a new password.</source>
        <translation>请设置新密码。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A settings check changed nothing.</source>
        <translation>设置检查未更改任何内容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to do.</source>
        <translation>无需任何操作。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>New backup codes replaced the earlier ones.</source>
        <translation>新的备用代码已替换之前的代码。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the new codes, or generate another set.</source>
        <translation>请保留新代码，或再生成一组。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A revoked authenticator cannot be restored.</source>
        <translation>已撤销的身份验证器无法恢复。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enrol the authenticator again.</source>
        <translation>请重新注册身份验证器。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A deleted role cannot be restored.</source>
        <translation>已删除的角色无法恢复。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create the role again with its permissions and members.</source>
        <translation>请重新创建该角色及其权限和成员。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This program cannot remove a portal.</source>
        <translation>本程序无法删除门户。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the server&apos;s operator to remove it.</source>
        <translation>请联系服务器运维人员删除。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A sent invitation cannot be unsent.</source>
        <translation>已发送的邀请无法撤回。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel it in the Invitations panel.</source>
        <translation>请在“邀请”面板中取消它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A cancelled invitation cannot be reopened.</source>
        <translation>已取消的邀请无法重新打开。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite the person again.</source>
        <translation>请重新邀请此人。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+4"/>
        <source>A revert does not delete what was created.</source>
        <translation>还原不会删除已创建的内容。</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+4"/>
        <source>Delete it in the Notifications panel.</source>
        <translation>请在通知面板中删除它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+4"/>
        <source>What was deleted cannot be restored.</source>
        <translation>已删除的内容无法恢复。</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+4"/>
        <source>Create it again.</source>
        <translation>请重新创建。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>a cut-off record</source>
        <extracomment>Why the journal does not verify (``journal.Problem.reason``).</extracomment>
        <translation>一条被截断的记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a line that is not a record</source>
        <translation>一行不是记录的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a record edited after it was written</source>
        <translation>一条写入后被修改的记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a record removed or moved</source>
        <translation>一条被删除或移动的记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>records out of order</source>
        <translation>记录顺序错乱</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Set back from %1 to %2.</source>
        <extracomment>What a line&apos;s value is a value of, for its label: (field, kind of row) by the line&apos;s key.</extracomment>
        <translation>从 %1 恢复为 %2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Changed since the record: before %1, after %2, now %3. Check who changed it; set it by hand if it should still go back.</source>
        <translation>记录之后已被更改：更改前 %1，更改后 %2，当前 %3。请查明是谁更改的；如仍需恢复，请手动设置。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Already back: the value now is the value before (%1).</source>
        <translation>已是原值：当前值即更改前的值（%1）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 cannot become %2 directly (from %1: %3). Change it to one of those first.</source>
        <translation>%1 无法直接变为 %2（从 %1 可变为：%3）。请先将其改为其中之一。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This change cannot be set back.</source>
        <translation>此更改无法恢复。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The record has no usable value before the change. Set it by hand (after: %1).</source>
        <translation>该记录没有可用的更改前的值。请手动设置（更改后：%1）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The change was refused: nothing to set back.</source>
        <translation>该更改已被拒绝：无需恢复。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It no longer exists.</source>
        <translation>它已不存在。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Another account&apos;s IP whitelist: sign in as that account to revert it.</source>
        <translation>这是其他账户的 IP 白名单：请以该账户登录后再还原。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The signed-in account&apos;s own status: sign in as another administrator.</source>
        <translation>这是当前登录账户自身的状态：请以其他管理员身份登录。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The journal record is not authenticated: no checkpoint of this installation vouches for it, this program did not write it, and the job file does not confirm it. Anyone who can write the journal could have added it, so it is left alone.</source>
        <translation>这条变更日志记录未经认证：本安装没有任何检查点为它担保，它不是本程序写入的，任务文件也无法确认它。任何能写入变更日志的人都可能添加它，因此不予处理。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>at line %1 (record %2): %3</source>
        <translation>在第 %1 行（记录 %2）：%3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>it does not match its signed checkpoints (%1)</source>
        <translation>与其签名检查点不一致（%1）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Nothing was sent.</source>
        <translation>未发送任何内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This session is read-only: it cannot revert.</source>
        <translation>此会话为只读：无法还原。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The journal does not verify, so nothing in it is reverted: %1.</source>
        <translation>变更日志未通过验证，因此不会还原其中任何内容：%1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The journal has a break at line %1 (record %2: %3) after record %4: records may be missing there, so nothing is reverted across it.</source>
        <translation>变更日志在记录 %4 之后的第 %1 行（记录 %2：%3）处有断点：那里可能缺少记录，因此不会跨越该断点进行还原。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Record %1 was made on %2 (profile %3), not on the server signed in to (%4): sign in there to revert it.</source>
        <translation>记录 %1 是在 %2（连接配置 %3）上产生的，而不是在当前登录的服务器（%4）上：请登录该服务器后再还原。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The journal records no change of this job: nothing to revert.</source>
        <translation>变更日志中没有此任务的更改记录：无需还原。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The journal has no such change: %1.</source>
        <translation>变更日志中没有此更改：%1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Select the records to revert.</source>
        <translation>请选择要还原的记录。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Records %1 are not authenticated: no checkpoint of this installation vouches for them, this program did not write them, and no job file here confirms them. Anyone who can write the journal could have added them, so they are not reverted here.</source>
        <translation>记录 %1 未经认证：本安装没有任何检查点为它们担保，它们不是本程序写入的，这里也没有任务文件能确认它们。任何能写入变更日志的人都可能添加它们，因此不在这里还原。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A revert of the same job or record is being planned or run in another window or program. Wait for it to end.</source>
        <translation>另一个窗口或程序正在规划或运行同一任务或记录的还原。请等它结束。</translation>
    </message>
</context>
<context>
    <name>ReviewQueue</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_model.py" line="+27"/>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>门户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>机构</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Keep</source>
        <extracomment>The model&apos;s column of the decision (shown second: ``queue_columns``).</extracomment>
        <translation>保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoke</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t know</source>
        <translation>不确定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitation</source>
        <translation>邀请</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New</source>
        <translation>新增</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reactivated</source>
        <translation>已重新激活</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not updated</source>
        <translation>长期未更新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Writes</source>
        <translation>可写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Own account</source>
        <translation>本人账户</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>%1 in the earlier snapshot %2, %3 now</source>
        <translation>之前的快照 %2 中为 %1，现为 %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 in the earlier campaign&apos;s scope %2, %3 now</source>
        <translation>之前审查活动的范围 %2 中为 %1，现为 %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not updated for %1 days (since %2)</source>
        <translation>%1 天未更新（自 %2 起）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pending, expired on %1</source>
        <translation>待处理，已于 %1 过期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>holds write permissions: %1</source>
        <translation>拥有写入权限：%1</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>a system-portal (administrator) account</source>
        <translation>系统门户（管理员）账户</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the reviewer&apos;s own account: another reviewer decides it</source>
        <translation>审阅人本人的账户：由另一位审阅人决定</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>not in the earlier snapshot %1</source>
        <extracomment>Rows fetched at once, and pages kept. The data role of a row&apos;s :class:`~portal_admin.reviews.Item`. The roles answered (a view asks for a dozen per cell: the others cost nothing). A flag&apos;s reason in the program&apos;s languages, by the engine&apos;s reason code (``reviews/flags.py``): its parameters fill %1, %2 ...</extracomment>
        <translation>不在之前的快照 %1 中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not in the earlier campaign&apos;s scope %1</source>
        <translation>不在之前审查活动的范围 %1 中</translation>
    </message>
</context>
<context>
    <name>RoleColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_model.py" line="+26"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Members</source>
        <translation>成员数</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Permissions</source>
        <translation>权限数</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>RolesPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+286"/>
        <source>%n role(s)</source>
        <translation>%n 个角色</translation>
    </message>
    <message>
        <location line="-117"/>
        <source>&amp;Permission codes:</source>
        <translation>权限代码(&amp;P)：</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Choose a role to see its permissions.</source>
        <translation>选择一个角色以查看其权限。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+134"/>
        <source>Choose a role.</source>
        <extracomment>The role the detail shows (None: nothing chosen). &quot;loading&quot;, &quot;ready&quot;, &quot;empty&quot; or &quot;error&quot;. The panel: it keeps the tasks and knows what the signed-in account may do.</extracomment>
        <translation>请选择一个角色。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+3"/>
        <source>Copy id</source>
        <translation>复制 ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the role id</source>
        <translation>复制角色 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+57"/>
        <source>Could not delete the role %1</source>
        <translation>无法删除角色 %1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+7"/>
        <source>Created:</source>
        <translation>创建时间：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-28"/>
        <location line="+2"/>
        <source>Delete role</source>
        <translation>删除角色</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+8"/>
        <source>Delete role…</source>
        <translation>删除角色…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete the role</source>
        <translation>删除角色</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-11"/>
        <source>Delete the role %1? This cannot be undone.</source>
        <translation>要删除角色 %1 吗？此操作无法撤消。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="-12"/>
        <source>Description:</source>
        <translation>描述：</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Id:</source>
        <translation>ID：</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Loading…</source>
        <extracomment>Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location line="-113"/>
        <source>Members:</source>
        <translation>成员：</translation>
    </message>
    <message>
        <location line="+146"/>
        <source>Number of roles</source>
        <translation>角色数量</translation>
    </message>
    <message>
        <location line="-138"/>
        <source>Permission codes</source>
        <translation>权限代码</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Refresh the roles</source>
        <translation>刷新角色</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Reload the roles (F5)</source>
        <translation>重新加载角色（F5）</translation>
    </message>
    <message>
        <location line="-124"/>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role details</source>
        <translation>角色详情</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>Role id</source>
        <translation>角色 ID</translation>
    </message>
    <message>
        <location line="+149"/>
        <location line="+2"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-18"/>
        <source>The OWNER role is protected: it can never be deleted.</source>
        <translation>OWNER 角色受保护，永远不能删除。</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>The role %1 was deleted.</source>
        <translation>角色 %1 已删除。</translation>
    </message>
    <message>
        <location line="-59"/>
        <source>The role is in use by %n member(s): give them another role before deleting it.</source>
        <translation>该角色正被 %n 名成员使用：请先为他们分配其他角色，再删除此角色。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="-27"/>
        <source>The roles could not be loaded.</source>
        <translation>无法加载角色。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+17"/>
        <source>The server refuses if members still hold the role.</source>
        <translation>如果仍有成员拥有该角色，服务器将拒绝删除。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="-4"/>
        <source>The workspace has no roles.</source>
        <translation>该工作区没有角色。</translation>
    </message>
    <message>
        <location line="-118"/>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Updated:</source>
        <translation>更新时间：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Why the role cannot be deleted</source>
        <translation>无法删除角色的原因</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-144"/>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
</context>
<context>
    <name>SavedViews</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/saved_views.py" line="+139"/>
        <source>The view “%1” no longer exists.</source>
        <extracomment>How long the list must stay unchanged before its state is written. The view shown or the list of views changed (the button&apos;s text follows). Something went wrong that the person should read (a translated sentence).</extracomment>
        <translation>视图“%1”已不存在。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The view could not be saved: the settings file is not writable.</source>
        <translation>无法保存视图：设置文件不可写入。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The view could not be deleted: the settings file is not writable.</source>
        <translation>无法删除视图：设置文件不可写入。</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+41"/>
        <source>Default view</source>
        <translation>默认视图</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Save view as…</source>
        <translation>视图另存为…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Save changes to “%1”</source>
        <translation>将更改保存到“%1”</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Delete view “%1”</source>
        <translation>删除视图“%1”</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reset to default</source>
        <translation>恢复默认</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No filters, the first sort and columns, widths fitted</source>
        <translation>无筛选条件，初始排序和列，列宽适应内容</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>View: %1</source>
        <translation>视图：%1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>This list already has 50 saved views; delete one first.</source>
        <translation>此列表已有 50 个已保存的视图；请先删除一个。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A view name can have at most 60 characters.</source>
        <translation>视图名称最多 60 个字符。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The view needs a name.</source>
        <translation>视图需要一个名称。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/saved_view_dialog.py" line="+25"/>
        <source>Save view</source>
        <translation>保存视图</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>View name</source>
        <translation>视图名称</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The filters, sort and columns of this list are kept on this computer.</source>
        <translation>此列表的筛选条件、排序和列保存在这台计算机上。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>A view of this name exists: saving replaces it.</source>
        <translation>已有同名视图：保存将替换它。</translation>
    </message>
</context>
<context>
    <name>SecretField</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/secrets.py" line="+66"/>
        <source>Unchanged (type to replace)</source>
        <translation>未更改（输入新值以替换）</translation>
    </message>
</context>
<context>
    <name>SecurityPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/common.py" line="+38"/>
        <source>Sign in to see this panel.</source>
        <translation>登录后即可查看此面板。</translation>
    </message>
</context>
<context>
    <name>SecurityText</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/formatting.py" line="+16"/>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>已拦截</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>%1 days ago</source>
        <translation>%1 天前</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>%1 h ago</source>
        <translation>%1 小时前</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>%1 min ago</source>
        <translation>%1 分钟前</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 months ago</source>
        <translation>%1 个月前</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="-68"/>
        <source>in the future</source>
        <translation>未来时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
</context>
<context>
    <name>SessionsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/sessions.py" line="+45"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Client IP</source>
        <translation>客户端 IP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User agent</source>
        <translation>用户代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed in</source>
        <translation>登录时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last activity</source>
        <translation>最近活动</translation>
    </message>
    <message>
        <location line="+201"/>
        <source>&amp;Active sessions</source>
        <translation>活动会话(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Active sessions</source>
        <translation>活动会话</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Last sign-in IP:</source>
        <translation>最近登录 IP：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Last sign-in:</source>
        <translation>最近登录：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Maximum sessions:</source>
        <translation>最大会话数：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Password changed:</source>
        <translation>密码修改时间：</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh the sessions</source>
        <translation>刷新会话</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+2"/>
        <source>Session settings</source>
        <translation>会话设置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Single sign-on:</source>
        <translation>单点登录：</translation>
    </message>
    <message>
        <location line="-148"/>
        <source>This device</source>
        <translation>本设备</translation>
    </message>
</context>
<context>
    <name>SignInChart</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/chart.py" line="+56"/>
        <source>%1 successful and %2 failed sign-ins from %3 to %4</source>
        <translation>%3 至 %4 期间，登录成功 %1 次，失败 %2 次</translation>
    </message>
    <message>
        <location line="+145"/>
        <source>%1: %2 successful, %3 failed</source>
        <translation>%1：成功 %2 次，失败 %3 次</translation>
    </message>
    <message>
        <location line="-30"/>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="+30"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="-106"/>
        <location line="+38"/>
        <source>No sign-ins to show.</source>
        <translation>没有可显示的登录记录。</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Sign-ins per day</source>
        <translation>每日登录次数</translation>
    </message>
    <message>
        <location line="+99"/>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="-1"/>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="-1"/>
        <source>Day</source>
        <translation>日期</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
</context>
<context>
    <name>SignInErrors</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/controller.py" line="+20"/>
        <source>The email address or the password is wrong.</source>
        <extracomment>Clearer summaries for the error codes the sign-in forms meet.</extracomment>
        <translation>邮箱地址或密码错误。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The code is wrong or has expired. Check it and try again.</source>
        <translation>验证码错误或已过期，请检查后重试。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A code was sent a moment ago. Wait until the countdown ends.</source>
        <translation>验证码刚刚已发送，请等待倒计时结束。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The sign-in session has expired. Sign in again.</source>
        <translation>登录会话已过期，请重新登录。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The reset token is wrong, has expired or was already used.</source>
        <translation>重置令牌错误、已过期或已被使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The current password is wrong.</source>
        <translation>当前密码错误。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Too many attempts. Wait a while, then try again.</source>
        <translation>尝试次数过多，请稍后再试。</translation>
    </message>
</context>
<context>
    <name>SignInFlow</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/flow.py" line="+219"/>
        <source>You can send another code in %1 seconds.</source>
        <extracomment>list[MfaMethod] offered by the server for the current login session. Seconds until another email code may be sent (0: now). Seconds left in the login session (0 when none runs). Signed in: the account&apos;s email. The selected connection profile changed. An email address the pages should show (after setup or a change of page).</extracomment>
        <translation>%1 秒后可重新发送验证码。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>A code was sent to %1. It is valid for %2 minutes.</source>
        <translation>验证码已发送至 %1，%2 分钟内有效。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A code was sent to %1.</source>
        <translation>验证码已发送至 %1。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>The sign-in session expired before the code was entered. Sign in again.</source>
        <translation>输入验证码前登录会话已过期，请重新登录。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Enter the challenge token.</source>
        <translation>请输入质询令牌。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>If an account exists for %1, an email with a reset token is on its way. Check your mail.</source>
        <translation>如果 %1 对应的账号存在，包含重置令牌的邮件已在发送途中，请注意查收。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Enter the reset token from the email.</source>
        <translation>请输入邮件中的重置令牌。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Your password was changed. Sign in with the new password.</source>
        <translation>密码已修改，请使用新密码登录。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Enter the setup session id from the email.</source>
        <translation>请输入邮件中的设置会话 ID。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Your password is set. Sign in with it now.</source>
        <translation>密码已设置，现在可以用它登录了。</translation>
    </message>
</context>
<context>
    <name>SignInForms</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/forms.py" line="+83"/>
        <source>Information</source>
        <translation>提示</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Working</source>
        <translation>处理中</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Please wait</source>
        <translation>请稍候</translation>
    </message>
</context>
<context>
    <name>SignInPages</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/pages.py" line="+304"/>
        <source>Sign in to unlock</source>
        <extracomment>&quot;Edit…&quot; (the chosen profile) or &quot;New…&quot; (None) was clicked. The demo box&apos;s &quot;Fill in the administrator&quot; was clicked. Edit the chosen profile (a built-in or managed one opens read-only, to test it). True in the idle lock&apos;s sign-in window (see :meth:`set_unlocking`).</extracomment>
        <translation>登录以解锁</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The window was locked. Sign in again with your password and a second factor to continue where you left off.</source>
        <translation>窗口已锁定。请使用密码和第二步验证重新登录，从中断处继续。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sign in to the System Portal</source>
        <translation>登录 System Portal</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose the server, then enter your email address and password.</source>
        <translation>请选择服务器，然后输入邮箱地址和密码。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Connection:</source>
        <translation>连接(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+336"/>
        <source>&amp;Email:</source>
        <translation>邮箱(&amp;E)：</translation>
    </message>
    <message>
        <location line="-335"/>
        <source>&amp;Password:</source>
        <translation>密码(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>name@example.com</source>
        <translation>name@example.com</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+26"/>
        <source>Sign in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location line="-24"/>
        <location line="+26"/>
        <location line="+297"/>
        <source>Forgot your password?</source>
        <translation>忘记密码？</translation>
    </message>
    <message>
        <location line="-321"/>
        <source>I have a reset token</source>
        <translation>我有重置令牌</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+29"/>
        <source>First-time password setup</source>
        <translation>首次设置密码</translation>
    </message>
    <message>
        <location line="-223"/>
        <source>Demo accounts (built-in sandbox)</source>
        <extracomment>Wrapped hints below the form (a QFormLayout sizes wrapped labels badly). The window&apos;s notice, error panel and busy bar are moved here when the page shows. &quot;Fill in the administrator&quot; was clicked.</extracomment>
        <translation>演示账号（内置沙箱）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>read-only auditor</source>
        <translation>只读审计员</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>awaits approval</source>
        <translation>待审批</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>first-time setup</source>
        <translation>首次设置</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Codes, reset tokens and setup ids arrive in the demo mailbox.</source>
        <translation>验证码、重置令牌和设置 ID 都会发送到演示邮箱。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Fill in the administrator</source>
        <translation>填入管理员账号</translation>
    </message>
    <message>
        <location line="+158"/>
        <source>Connection profile</source>
        <translation>连接配置</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Environment of the selected profile</source>
        <translation>所选配置的环境</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+318"/>
        <source>Email address</source>
        <translation>邮箱地址</translation>
    </message>
    <message>
        <location line="-317"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enter a password reset token</source>
        <translation>输入密码重置令牌</translation>
    </message>
    <message>
        <location line="-180"/>
        <source>Demo accounts</source>
        <translation>演示账号</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fill in the demo administrator&apos;s email and password</source>
        <translation>填入演示管理员的邮箱和密码</translation>
    </message>
    <message>
        <location line="+155"/>
        <source>E&amp;dit…</source>
        <translation>编辑(&amp;D)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit or test the connection profile</source>
        <translation>编辑或测试连接配置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ne&amp;w…</source>
        <translation>新建(&amp;W)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New connection profile</source>
        <translation>新建连接配置</translation>
    </message>
    <message>
        <location line="+131"/>
        <source>Send a code to %1, then type it below.</source>
        <translation>请先向 %1 发送验证码，然后在下方输入。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open your authenticator app and type the code it shows for this account.</source>
        <translation>请打开身份验证器应用，输入其中显示的此账号的验证码。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Send code</source>
        <translation>发送验证码</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+10"/>
        <source>Resend code</source>
        <translation>重新发送验证码</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>You can ask for a new code in %1 seconds.</source>
        <translation>%1 秒后可重新获取验证码。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No code arrived? You can send a new one now.</source>
        <translation>没有收到验证码？现在可以重新发送。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Resend countdown</source>
        <translation>重新发送倒计时</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Time left to finish signing in: %1</source>
        <translation>剩余登录时间：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Time left to finish signing in</source>
        <translation>剩余登录时间</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Confirm it is you</source>
        <translation>验证您的身份</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The password for %1 is right. Now confirm with a second factor.</source>
        <translation>%1 的密码正确。请完成第二步验证。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Method:</source>
        <translation>方式：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Code by email</source>
        <translation>邮件验证码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code from an authenticator app</source>
        <translation>身份验证器应用验证码</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Code:</source>
        <translation>验证码(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>6 digits</source>
        <translation>6 位数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+110"/>
        <location line="+75"/>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <location line="-184"/>
        <source>Verify and sign in</source>
        <translation>验证并登录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fill in the demo code</source>
        <translation>填入演示验证码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Second factor methods</source>
        <translation>第二步验证方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verification code</source>
        <translation>验证码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Back to email and password</source>
        <translation>返回邮箱和密码</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verify the code and sign in</source>
        <translation>验证验证码并登录</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fill in the sandbox&apos;s current authenticator code</source>
        <translation>填入沙箱当前的身份验证器验证码</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Your account is waiting for approval</source>
        <translation>您的账号正在等待审批</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The email, password and code for %1 were right, but an administrator has not yet approved this account.</source>
        <translation>%1 的邮箱、密码和验证码均正确，但管理员尚未审批此账号。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>You cannot use the program until the account is approved. Ask your administrator to approve it, then sign in again. Nothing was changed.</source>
        <translation>账号获批前无法使用本程序。请联系管理员审批，然后重新登录。未做任何更改。</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+3"/>
        <location line="+48"/>
        <location line="+29"/>
        <location line="+4"/>
        <location line="+41"/>
        <source>Back to sign-in</source>
        <translation>返回登录</translation>
    </message>
    <message>
        <location line="-124"/>
        <source>Why you cannot enter</source>
        <translation>无法进入的原因</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What to do</source>
        <translation>解决办法</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Enter your email address. If an account exists for it, the server emails a reset token you can use to choose a new password.</source>
        <translation>请输入邮箱地址。如果该地址对应的账号存在，服务器会发送一封包含重置令牌的邮件，您可以用它设置新密码。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>C&amp;hallenge token:</source>
        <translation>质询令牌(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The bot-challenge token your organisation gives you for password recovery.</source>
        <translation>贵单位为找回密码提供的人机验证令牌。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Send reset email</source>
        <translation>发送重置邮件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Challenge token</source>
        <translation>质询令牌</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Send the password reset email</source>
        <translation>发送密码重置邮件</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Check your mail</source>
        <translation>请查收邮件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the email, copy the reset token it contains, then choose “Enter the reset token”. The token works once and expires.</source>
        <translation>打开邮件，复制其中的重置令牌，然后选择“输入重置令牌”。令牌只能使用一次，且会过期。</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+5"/>
        <source>Enter the reset token</source>
        <translation>输入重置令牌</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&amp;New password:</source>
        <translation>新密码(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repeat it:</source>
        <translation>确认新密码(&amp;R)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New password</source>
        <translation>新密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeat the new password</source>
        <translation>再次输入新密码</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Choose a new password</source>
        <translation>设置新密码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Paste the reset token from the email and choose a new password.</source>
        <translation>请粘贴邮件中的重置令牌，并设置新密码。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reset &amp;token:</source>
        <translation>重置令牌(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set new password</source>
        <translation>设置新密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset token</source>
        <translation>重置令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the new password</source>
        <translation>设置新密码</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Set up your password</source>
        <translation>设置您的密码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your account was created for you. Paste the setup id from the welcome email and choose your password.</source>
        <translation>您的账号已创建。请粘贴欢迎邮件中的设置 ID，并设置您的密码。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Setup &amp;id:</source>
        <translation>设置 ID(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set password</source>
        <translation>设置密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Setup session id</source>
        <translation>设置会话 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the password</source>
        <translation>设置密码</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Signed in</source>
        <translation>已登录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Opening the program…</source>
        <translation>正在打开程序…</translation>
    </message>
</context>
<context>
    <name>SignInValidation</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/validation.py" line="+20"/>
        <source>Enter your email address.</source>
        <translation>请输入邮箱地址。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The email address is not valid: it needs a name, an @ and a domain.</source>
        <translation>邮箱地址无效：需要包含用户名、@ 和域名。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Enter your password.</source>
        <translation>请输入密码。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enter the verification code.</source>
        <translation>请输入验证码。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Enter a new password.</source>
        <translation>请输入新密码。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new password must have at least %1 characters.</source>
        <translation>新密码至少需要 %1 个字符。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Type the new password a second time to confirm it.</source>
        <translation>请再次输入新密码以确认。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The two new passwords do not match.</source>
        <translation>两次输入的新密码不一致。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>At least %1 characters.</source>
        <translation>至少 %1 个字符。</translation>
    </message>
</context>
<context>
    <name>SignInWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/window.py" line="+465"/>
        <source>The built-in sandbox accepts the token already filled in.</source>
        <extracomment>The page class of each step (the credentials page is built with the window). The challenge token the sandbox accepts on forgot-password (see docs/sandbox.md). The person asked to edit a profile (or to make one: None); the program opens the editor. The person asked to review a campaign file without signing in (docs/reviews.md). The person closed the window (without signing in, or after). The window was painted for the first time (it is on screen). Set by :meth:`pin_email`: only that account may sign in here.</extracomment>
        <translation>内置沙箱接受已预先填入的令牌。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Unlock — Portal Admin</source>
        <translation>解锁 — Portal Admin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign in — Portal Admin</source>
        <translation>登录 — Portal Admin</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Demo mailbox…</source>
        <translation>演示邮箱…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open the demo mailbox</source>
        <translation>打开演示邮箱</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Re&amp;view a campaign file…</source>
        <translation>审阅审查活动文件(&amp;V)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Review a campaign file</source>
        <translation>审阅审查活动文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Decide an access-review campaign from its file alone, without signing in</source>
        <translation>无需登录，仅凭文件对访问审查活动作出决定</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sign-in steps</source>
        <translation>登录步骤</translation>
    </message>
</context>
<context>
    <name>SnapshotDiff</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/diff_view.py" line="+28"/>
        <source>What</source>
        <translation>类别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name or e-mail</source>
        <translation>名称或邮箱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>变更前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>变更后</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Accounts</source>
        <extracomment>The kinds of change, as the diff names them, and their words.</extracomment>
        <translation>账户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>邀请</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist</source>
        <translation>IP 白名单</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFA</source>
        <translation>MFA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channels</source>
        <translation>渠道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel types</source>
        <translation>渠道类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>changed</source>
        <translation>变更</translation>
    </message>
    <message>
        <location line="+123"/>
        <source>The first %1 of %2 changes are shown; exports hold all of them.</source>
        <extracomment>Rows shown at most; the export writes every change. &quot;csv&quot; or &quot;pack&quot;: the person asked to export what is shown. The server&apos;s labels each snapshot keeps (old, new).</extracomment>
        <translation>显示 %2 处变更中的前 %1 处；导出包含全部变更。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 of %2 changes shown.</source>
        <translation>显示 %1 / %2 处变更。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>All kinds</source>
        <translation>所有类别</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kind of change</source>
        <translation>变更类别</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by id, name or value</source>
        <translation>按 ID、名称或值筛选</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change filter</source>
        <translation>变更筛选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>证据包…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changes between the snapshots</source>
        <translation>两份快照之间的变更</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Choose two snapshots and compare them, or take a new one.</source>
        <translation>请选择两份快照进行比较，或获取一份新快照。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Changes from the snapshot of %1 to the snapshot of %2</source>
        <translation>从 %1 的快照到 %2 的快照的变更</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No change: the two snapshots hold the same access.</source>
        <translation>无变更：两份快照的访问权限相同。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 %2: %3</source>
        <translation>%1%2：%3</translation>
    </message>
</context>
<context>
    <name>SnapshotsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/snapshots_panel.py" line="+57"/>
        <source>Taken</source>
        <translation>获取时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accounts</source>
        <translation>账户数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>邀请</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reading accounts: %1 of %2</source>
        <translation>正在读取账户：%1 / %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading roles</source>
        <translation>正在读取角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading invitations</source>
        <translation>正在读取邀请</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading the security settings</source>
        <translation>正在读取安全设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading notification channels</source>
        <translation>正在读取通知渠道</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The file %1 does not exist.</source>
        <translation>文件 %1 不存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a snapshot of this program, or it is damaged.</source>
        <translation>%1 不是本程序的快照，或已损坏。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is an incomplete snapshot: it was interrupted before it was finished.</source>
        <translation>%1 是不完整的快照：它在完成前被中断。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was made by a newer version of the program.</source>
        <translation>%1 由更新版本的程序创建。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 holds SQL that no snapshot of this program has (a trigger, a view or another object): it was refused unread.</source>
        <translation>%1 含有本程序的快照从不包含的 SQL（触发器、视图或其他对象）：已拒绝，未读取。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 does not have the tables of a snapshot of this program: refused.</source>
        <translation>%1 不具有本程序快照的表结构：已拒绝。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is damaged: its integrity check failed, so it was not used.</source>
        <translation>%1 已损坏：完整性检查未通过，因此未使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 could not be read in time, so it was not used.</source>
        <translation>%1 未能在时限内读取，因此未使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was changed since it was opened: open it again.</source>
        <translation>%1 在打开后已被更改：请重新打开。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>This file cannot be used as a snapshot.</source>
        <translation>此文件不能用作快照。</translation>
    </message>
    <message>
        <location line="+224"/>
        <source>Select two snapshots.</source>
        <extracomment>Reads this installation&apos;s fingerprint, or None (called in a worker thread; makes no key). By default ``trust.own_fingerprint`` of the key store. The last pack check shown, and the list of trusted keys (while open). Snapshot files opened from elsewhere (listed until the program ends).</extracomment>
        <translation>请选择两个快照。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An access-review campaign of the selected snapshot</source>
        <translation>基于所选快照的访问审查活动</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+7"/>
        <source>Select one snapshot.</source>
        <translation>请选择一个快照。</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>A signed zip of the selected snapshot: CSV and a report</source>
        <translation>所选快照的签名 zip：CSV 和报告</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>The snapshot was cancelled; nothing was kept.</source>
        <translation>快照已取消，未保留任何内容。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The snapshot could not be finished; nothing was kept.</source>
        <translation>快照未能完成，未保留任何内容。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Snapshot taken: %1 accounts, %2 roles, %3 invitations.</source>
        <translation>快照已获取：%1 个账户、%2 个角色、%3 个邀请。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Starting the snapshot…</source>
        <translation>正在开始快照…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Snapshot taken. There was no earlier snapshot of this server: this one is the baseline of the next comparison.</source>
        <translation>快照已获取。此服务器没有更早的快照：这份快照将作为下次比较的基准。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Snapshot taken and compared with the one of %1: %2 changes.</source>
        <translation>快照已获取，并已与 %1 的快照比较：%2 处变更。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Snapshots (*.sqlite);;All files (*)</source>
        <translation>快照 (*.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Evidence packs (*.zip);;All files (*)</source>
        <translation>证据包 (*.zip);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The list of trusted keys cannot be read: only this installation&apos;s key is trusted for now.</source>
        <translation>无法读取受信任密钥列表：目前只信任本安装的密钥。</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>%1 changes written to %2.</source>
        <translation>已将 %1 处变更写入 %2。</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Take snapshot</source>
        <translation>获取快照</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Snapshot and compare with the last</source>
        <translation>获取快照并与上次比较</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Take a snapshot now and show what changed since the last one of this server</source>
        <translation>立即获取快照，并显示自此服务器上次快照以来的变更</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List the snapshots again (F5)</source>
        <translation>重新列出快照（F5）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Compare the two selected</source>
        <translation>比较所选的两份</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a snapshot file…</source>
        <translation>打开快照文件…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence pack…</source>
        <translation>证据包…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Review campaign…</source>
        <translation>审查活动…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Verify a pack…</source>
        <translation>验证证据包…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check an evidence pack&apos;s signature and every file in it</source>
        <translation>检查证据包的签名及其中的每个文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trusted keys…</source>
        <translation>受信任的密钥…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The signing keys whose packs this computer accepts as verified</source>
        <translation>此计算机将其签名的证据包视为已验证的签名密钥</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+4"/>
        <source>Snapshots</source>
        <translation>快照</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Snapshot progress</source>
        <translation>快照进度</translation>
    </message>
</context>
<context>
    <name>Tour</name>
    <message>
        <location filename="../src/portal_admin/ui/tour/runner.py" line="+331"/>
        <source>Suspended accounts</source>
        <extracomment>An account id the sandbox does not know: its 404 is the tour&apos;s real error. The sandbox&apos;s demo auditor (read permissions only), who signs in for the kiosk tour. Set to a folder, the tour pauses at each stop for an outside checker (the AT-SPI walk of ``tests/accessibility``): it writes ``stop-N.json`` (``{&quot;n&quot;: N, &quot;name&quot;: ...}``) there, keeps the event loop turning (so the checker&apos;s questions are answered) until ``done-N`` appears, and writes ``end.json`` (``{&quot;stops&quot;: N, &quot;problems&quot;: [...]}``) when the tour is over. How long one stop waits for the checker before the tour goes on (noted as a problem). The folder of the stop-by-stop handshake (see :data:`PAUSE_ENV`); None: no pauses. The window sizes the workspace is pictured at.</extracomment>
        <translation>已暂停的账号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/tour/dialogs.py" line="+56"/>
        <source>Suspended</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Suspend the account</source>
        <translation>暂停账号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend the account ann@example.com.</source>
        <translation>暂停账号 ann@example.com。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend</source>
        <translation>暂停</translation>
    </message>
</context>
<context>
    <name>TrustedKeys</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/trust_dialog.py" line="+48"/>
        <location line="+183"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="-182"/>
        <location line="+181"/>
        <source>Fingerprint</source>
        <translation>指纹</translation>
    </message>
    <message>
        <location line="-180"/>
        <source>Added</source>
        <translation>添加时间</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>This is not a key fingerprint. A fingerprint is 64 hexadecimal digits (0–9, a–f), as the signer&apos;s About window shows it; spaces do not matter.</source>
        <extracomment>The table&apos;s role holding a row&apos;s fingerprint (the own key&apos;s row holds none).</extracomment>
        <translation>这不是密钥指纹。指纹是 64 位十六进制数字（0–9、a–f），与签名者的“关于”窗口中显示的一致；空格无关紧要。</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Give the key a name: whose key it is.</source>
        <extracomment>The key added (a ``TrustedKey``), just before the dialog closes.</extracomment>
        <translation>请为密钥命名：说明它属于谁。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This name reads as this installation&apos;s own key. Name whose key it is.</source>
        <translation>这个名称看起来像本安装自己的密钥。请写明这是谁的密钥。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This is this installation&apos;s own key: its packs are trusted already.</source>
        <translation>这是本安装自己的密钥：其证据包已受信任。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This key is trusted already, as “%1”.</source>
        <translation>此密钥已受信任，名称为“%1”。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The key was not added: %1</source>
        <translation>未添加密钥：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The list of trusted keys could not be saved: %1</source>
        <translation>无法保存受信任密钥列表：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Trust a signing key</source>
        <translation>信任签名密钥</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trust a key only after comparing its fingerprint with the one its owner reads to you from their program&apos;s Help &gt; About, by another channel: in person or by telephone. Packs it signs will then be shown as verified.</source>
        <translation>请先通过其他渠道（当面或电话）将密钥指纹与其所有者从其程序“帮助 &gt; 关于”中读给您的指纹进行比对，然后再信任该密钥。此后，由它签名的证据包将显示为已验证。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Fingerprint:</source>
        <translation>指纹(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Whose key it is, e.g. “Audit team, Lyon”</source>
        <translation>密钥属于谁，例如“里昂审计组”</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Why the key was not added</source>
        <translation>未添加密钥的原因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trust this key</source>
        <translation>信任此密钥</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>This installation</source>
        <extracomment>The list changed (a key added or removed): a check shown elsewhere may be redone. Why the list cannot be read or changed (&quot;&quot; when it can).</extracomment>
        <translation>本安装</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The list of trusted keys cannot be read: %1</source>
        <translation>无法读取受信任密钥列表：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This installation&apos;s own key is not listed: it has not made one yet, or this computer&apos;s keyring cannot be read.</source>
        <translation>未列出本安装自己的密钥：它尚未生成密钥，或无法读取此计算机的密钥环。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No other key is trusted yet.</source>
        <translation>尚未信任其他密钥。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>This installation&apos;s own key is always trusted.</source>
        <translation>本安装自己的密钥始终受信任。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Remove a trusted key</source>
        <translation>删除受信任的密钥</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop trusting the key “%1”?</source>
        <translation>要停止信任密钥“%1”吗？</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Fingerprint %1. Packs it signed will be shown as signed by a key you do not trust.</source>
        <translation>指纹 %1。由它签名的证据包将显示为由您不信任的密钥签名。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+35"/>
        <location line="+10"/>
        <source>Trusted keys</source>
        <translation>受信任的密钥</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Evidence packs signed by these keys are shown as verified. This installation&apos;s own key is always trusted. Add another key only after comparing its fingerprint with its owner&apos;s by another channel.</source>
        <translation>由这些密钥签名的证据包显示为已验证。本安装自己的密钥始终受信任。请先通过其他渠道将指纹与密钥所有者的指纹比对，再添加其他密钥。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add a key…</source>
        <translation>添加密钥…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy fingerprint</source>
        <translation>复制指纹</translation>
    </message>
</context>
<context>
    <name>TypedConfirm</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/typed_confirm.py" line="+74"/>
        <source>That is not the number of targets.</source>
        <translation>这不是目标数量。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 (%2): type %3 to confirm:</source>
        <translation>%1（%2）：输入 %3 以确认：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 targets will change: type %1 to confirm:</source>
        <translation>将更改 %1 个目标：输入 %1 以确认：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Number of targets, to confirm</source>
        <translation>目标数量（用于确认）</translation>
    </message>
</context>
</TS>
